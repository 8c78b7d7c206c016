import { useId, useState, type KeyboardEvent } from "react";
import { COMMENT_MAX_LENGTH } from "@/features/feed/api/comments";

interface CommentInputProps {
  label: string;
  /** Sends the trimmed text; the box empties once it resolves, and keeps it on a failure. */
  onSend: (description: string) => Promise<unknown>;
  busy: boolean;
}

/** A comment box: 200 characters with a visible counter, sent on Enter when not empty. */
export function CommentInput({ label, onSend, busy }: CommentInputProps) {
  const counterId = useId();
  const [text, setText] = useState("");
  const description = text.trim();

  const send = () => {
    if (description === "" || busy) return;
    // A failure is already the catalogue's toast; the text stays to try again.
    onSend(description).then(
      () => setText(""),
      () => undefined,
    );
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== "Enter" || event.nativeEvent.isComposing) return;
    event.preventDefault();
    send();
  };

  return (
    <div className="feed-comment-input">
      <input
        aria-label={label}
        className="feed-comment-input__field"
        type="text"
        placeholder={label}
        maxLength={COMMENT_MAX_LENGTH}
        value={text}
        aria-describedby={counterId}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <span id={counterId} className="feed-counter" aria-label={`${text.length} de ${COMMENT_MAX_LENGTH} caracteres`}>
        {text.length}/{COMMENT_MAX_LENGTH}
      </span>
      <button
        type="button"
        className="button button--primary feed-comment-input__send"
        disabled={description === "" || busy}
        aria-busy={busy}
        onClick={send}
      >
        Enviar
      </button>
    </div>
  );
}

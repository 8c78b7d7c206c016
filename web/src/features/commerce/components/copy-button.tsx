// A button that copies a text (the PIX "copia e cola" code) and then reads 'Copiado'
// (spec 002 section 2) for a moment. Where the Clipboard API is missing (a page served over
// plain HTTP on another host) it falls back to selecting a hidden copy and the copy command.
import { useTimedFlag } from "@/lib/use-timed-flag";
import "./commerce.css";

export const COPIED_TEXT = "Copiado";
/** How long the button reads 'Copiado' before it offers to copy again. */
export const COPIED_MS = 3000;

async function writeToClipboard(text: string): Promise<boolean> {
  if (navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      // Refused (no permission, not focused): the copy command below may still work.
    }
  }
  const scratch = document.createElement("textarea");
  scratch.value = text;
  scratch.setAttribute("readonly", "");
  scratch.style.position = "fixed";
  scratch.style.opacity = "0";
  const previouslyFocused = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  document.body.appendChild(scratch);
  scratch.focus();
  scratch.select();
  try {
    return document.execCommand("copy");
  } catch {
    return false;
  } finally {
    scratch.remove();
    previouslyFocused?.focus();
  }
}

interface CopyButtonProps {
  text: string;
  label?: string;
  className?: string;
}

export function CopyButton({ text, label = "Copiar código", className = "button button--primary" }: CopyButtonProps) {
  const { shown: copied, show: showCopied } = useTimedFlag(COPIED_MS);

  const copy = async () => {
    if (await writeToClipboard(text)) showCopied();
  };

  return (
    <>
      <button type="button" className={className} onClick={() => void copy()}>
        {copied ? COPIED_TEXT : label}
      </button>
      <span className="commerce-visually-hidden" role="status">
        {copied ? COPIED_TEXT : ""}
      </span>
    </>
  );
}

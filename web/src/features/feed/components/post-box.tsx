// The Mural's post box (spec 001 "Wall feed", sections 4 and 5): up to 320 characters with
// a counter, and one image (JPEG or PNG, 1.2 MB) or one video (.mov, .mp4, .wmw/.wmv,
// 200 MB); choosing one clears the other. A file outside the rules is only logged, as the
// spec says. While a video uploads the form is disabled and 'Subindo o vídeo...' shows with
// its progress; once published the box empties, and a video's author is told it may take a
// few minutes to appear.
import { useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent } from "react";
import { usePublishPost, type PostAttachment } from "@/features/feed/api/posts";
import type { FeedVideo } from "@/features/feed/api/types";
import {
  POST_IMAGE_MAX_BYTES,
  POST_IMAGE_TYPES,
  POST_MAX_LENGTH,
  POST_VIDEO_EXTENSIONS,
  POST_VIDEO_MAX_BYTES,
  PUBLISH_LABEL,
  UPLOADING_TEXT,
  VIDEO_PROCESSING_NOTE,
} from "@/features/feed/feed-text";

/** What is attached, with what the box shows of it. */
type Attached =
  | { kind: "image"; base64: string; imageType: string; name: string }
  | { kind: "video"; file: File; name: string; preview: string | null; videoId?: number };

interface Progress {
  sent: number;
  total: number;
}

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    // readAsDataURL always yields a string.
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error ?? new Error("read failed"));
    reader.readAsDataURL(file);
  });
}

function extensionOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot < 0 ? "" : name.slice(dot).toLowerCase();
}

/** Why a picked image is refused, or null. */
export function imageProblem(file: File): string | null {
  if (!POST_IMAGE_TYPES.includes(file.type)) return `type ${file.type || "unknown"} is not JPEG or PNG`;
  if (file.size > POST_IMAGE_MAX_BYTES) return `${file.size} bytes is over ${POST_IMAGE_MAX_BYTES}`;
  return null;
}

/** Why a picked video is refused, or null. */
export function videoProblem(file: File): string | null {
  if (!POST_VIDEO_EXTENSIONS.includes(extensionOf(file.name))) return `${file.name} is not .mov, .mp4 or .wmv`;
  if (file.size > POST_VIDEO_MAX_BYTES) return `${file.size} bytes is over ${POST_VIDEO_MAX_BYTES}`;
  if (file.size === 0) return `${file.name} is empty`;
  return null;
}

/** A preview of the video, where the browser can make one. */
function previewOf(file: File): string | null {
  return typeof URL.createObjectURL === "function" ? URL.createObjectURL(file) : null;
}

function revoke(attached: Attached | null): void {
  if (attached?.kind === "video" && attached.preview !== null) URL.revokeObjectURL(attached.preview);
}

function toAttachment(attached: Attached | null): PostAttachment | null {
  if (attached === null) return null;
  if (attached.kind === "image") return { kind: "image", base64: attached.base64, imageType: attached.imageType };
  return { kind: "video", file: attached.file, videoId: attached.videoId };
}

export function PostBox() {
  const textId = useId();
  const counterId = useId();
  const [text, setText] = useState("");
  const [attached, setAttached] = useState<Attached | null>(null);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [processingNote, setProcessingNote] = useState(false);
  const publish = usePublishPost();
  const uploadAbort = useRef<AbortController | null>(null);
  const previewRef = useRef<Attached | null>(null);

  // Leaving the Mural stops an upload under way (the upload module cancels it on the server,
  // so it no longer holds one of the member's unfinished places) and frees the preview.
  useEffect(
    () => () => {
      uploadAbort.current?.abort();
      revoke(previewRef.current);
    },
    [],
  );

  const attach = (next: Attached | null) => {
    revoke(attached);
    previewRef.current = next;
    setAttached(next);
    setProcessingNote(false);
  };

  const pickImage = async (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const file = input.files?.[0];
    input.value = "";
    if (!file) return;
    const problem = imageProblem(file);
    if (problem !== null) {
      console.warn(`Post image refused: ${problem}.`);
      return;
    }
    try {
      const base64 = await readAsDataUrl(file);
      attach({ kind: "image", base64, imageType: file.type, name: file.name });
    } catch (error) {
      console.warn("Post image could not be read.", error);
    }
  };

  const pickVideo = (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const file = input.files?.[0];
    input.value = "";
    if (!file) return;
    const problem = videoProblem(file);
    if (problem !== null) {
      console.warn(`Post video refused: ${problem}.`);
      return;
    }
    attach({ kind: "video", file, name: file.name, preview: previewOf(file) });
  };

  const description = text.trim();
  const busy = publish.isPending;
  const canPublish = !busy && (description !== "" || attached !== null);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!canPublish) return;
    const isVideo = attached?.kind === "video";
    const controller = new AbortController();
    uploadAbort.current = controller;
    publish.mutate(
      {
        description,
        attachment: toAttachment(attached),
        signal: controller.signal,
        onUploadProgress: (sent, total) => setProgress({ sent, total }),
        // Kept, so that publishing again after a failed post does not upload the video twice.
        onUploaded: (video: FeedVideo) =>
          setAttached((current) => (current?.kind === "video" ? { ...current, videoId: video.id } : current)),
      },
      {
        onSuccess: () => {
          setText("");
          attach(null);
          setProcessingNote(isVideo);
        },
        onSettled: () => {
          setProgress(null);
          uploadAbort.current = null;
        },
      },
    );
  };

  const percent = progress && progress.total > 0 ? Math.floor((progress.sent / progress.total) * 100) : 0;

  return (
    <form className="feed-box" aria-label="Novo post" onSubmit={submit}>
      <fieldset className="feed-box__fieldset" disabled={busy}>
        <label className="feed-field" htmlFor={textId}>
          O que você quer compartilhar?
        </label>
        <textarea
          id={textId}
          className="feed-textarea"
          rows={3}
          maxLength={POST_MAX_LENGTH}
          value={text}
          aria-describedby={counterId}
          onChange={(event) => setText(event.target.value)}
        />
        <span id={counterId} className="feed-counter" aria-label={`${text.length} de ${POST_MAX_LENGTH} caracteres`}>
          {text.length}/{POST_MAX_LENGTH}
        </span>

        {attached?.kind === "image" && (
          <div className="feed-box__attachment">
            <img className="feed-box__preview" src={attached.base64} alt="Prévia da imagem" />
            <button type="button" className="feed-link-button" onClick={() => attach(null)}>
              Remover imagem
            </button>
          </div>
        )}
        {attached?.kind === "video" && (
          <div className="feed-box__attachment">
            {attached.preview !== null && (
              <video className="feed-box__preview" src={attached.preview} muted controls preload="metadata" aria-label="Prévia do vídeo" />
            )}
            <span className="feed-box__file-name">{attached.name}</span>
            <button type="button" className="feed-link-button" onClick={() => attach(null)}>
              Remover vídeo
            </button>
          </div>
        )}

        <div className="feed-box__actions">
          <label className="button button--secondary feed-box__pick">
            Imagem
            <input
              type="file"
              className="feed-box__file"
              accept={POST_IMAGE_TYPES.join(",")}
              aria-label="Escolher imagem"
              onChange={(event) => void pickImage(event)}
            />
          </label>
          <label className="button button--secondary feed-box__pick">
            Vídeo
            <input
              type="file"
              className="feed-box__file"
              accept={[...POST_VIDEO_EXTENSIONS, "video/mp4", "video/quicktime", "video/x-ms-wmv"].join(",")}
              aria-label="Escolher vídeo"
              onChange={pickVideo}
            />
          </label>
          <button type="submit" className="button button--primary feed-box__publish" disabled={!canPublish} aria-busy={busy}>
            {PUBLISH_LABEL}
          </button>
        </div>
      </fieldset>

      {progress !== null && (
        <div className="feed-upload">
          <p className="feed-upload__text" role="status">
            {UPLOADING_TEXT} {percent}%
          </p>
          <div
            className="feed-progress"
            role="progressbar"
            aria-label={UPLOADING_TEXT}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
          >
            <span className="feed-progress__fill" style={{ width: `${percent}%` }} />
          </div>
        </div>
      )}
      {processingNote && (
        <p className="feed-box__note" role="status">
          {VIDEO_PROCESSING_NOTE}
        </p>
      )}
    </form>
  );
}

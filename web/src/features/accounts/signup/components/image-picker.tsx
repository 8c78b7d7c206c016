import { useId, useState } from "react";
import type { ImagePayload } from "@/types/api";
import "./image-picker.css";

const BYTES_PER_MB = 1024 * 1024;

/** The spec's message for a picture over the limit ("Erro: Imagem maior que 1MB"). */
export function imageTooLargeMessage(limitMb: number): string {
  return `Erro: Imagem maior que ${limitMb}MB`;
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

/** The API refuses pictures over 1 MB (docs/api-accounts.md). */
const SERVER_LIMIT_BYTES = 1 * BYTES_PER_MB;
const SHRUNK_MAX_SIDE_PX = 1024;

/**
 * A picture the wizard accepts (up to 3 MB) but the server would refuse is redrawn smaller
 * as JPEG first, where the browser can draw; elsewhere it goes as it is and the server's
 * message is shown.
 */
async function shrinkForServer(file: File, dataUrl: string): Promise<{ type: string; dataUrl: string }> {
  const original = { type: file.type || "image/jpeg", dataUrl };
  if (file.size <= SERVER_LIMIT_BYTES || typeof createImageBitmap !== "function") return original;
  const bitmap = await createImageBitmap(file);
  const scale = Math.min(1, SHRUNK_MAX_SIDE_PX / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(bitmap.width * scale);
  canvas.height = Math.round(bitmap.height * scale);
  const context = canvas.getContext("2d");
  if (!context) return original;
  context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  return { type: "image/jpeg", dataUrl: canvas.toDataURL("image/jpeg", 0.85) };
}

export interface PickedImage extends ImagePayload {
  /** A data URL to show the picture before it is sent. */
  preview: string;
}

/** What the API takes of a picked image. */
export function payloadOf(image: PickedImage): ImagePayload {
  return { imageType: image.imageType, base64: image.base64 };
}

/** The picture as the API takes it: its type and the data URL (the server reads the type from the content). */
export async function toImagePayload(file: File): Promise<PickedImage> {
  const { type, dataUrl } = await shrinkForServer(file, await readAsDataUrl(file));
  return { imageType: type, base64: dataUrl, preview: dataUrl };
}

interface ImagePickerProps {
  label: string;
  limitMb: number;
  image: PickedImage | null;
  onPick: (image: PickedImage | null) => void;
  /** How the preview is described to screen readers. */
  previewAlt: string;
}

/** Picks one picture of at most `limitMb`, shows it, and hands it over ready to send. */
export function ImagePicker({ label, limitMb, image, onPick, previewAlt }: ImagePickerProps) {
  const id = useId();
  const [error, setError] = useState<string | null>(null);

  const pick = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > limitMb * BYTES_PER_MB) {
      setError(imageTooLargeMessage(limitMb));
      onPick(null);
      return;
    }
    setError(null);
    try {
      onPick(await toImagePayload(file));
    } catch {
      setError("Não foi possível ler a imagem. Tente outro arquivo.");
    }
  };

  return (
    <div className="image-picker">
      <div className="image-picker__preview">
        {image ? <img src={image.preview} alt={previewAlt} /> : <span aria-hidden="true">+</span>}
      </div>
      <label className="button button--secondary" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        className="image-picker__input"
        type="file"
        accept="image/jpeg,image/png,image/webp,image/gif"
        aria-label={label}
        onChange={(event) => void pick(event.target.files?.[0])}
      />
      {error && (
        <p className="field__error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

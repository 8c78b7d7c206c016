// A member's video, sent the resumable way (docs/api-feed.md "Uploads"): the upload is
// created (POST /uploads/videos), then the file goes in chunks at offsets (PATCH
// /uploads/videos/{id} with Upload-Offset). XMLHttpRequest, not fetch, because only it
// reports the bytes sent while a request runs. A dropped connection or a 5xx is tried
// again after a growing pause, from what the server says it holds (GET /videos/{id}, or a
// 409's `received`), so a 200 MB video survives a flaky mobile connection; a chunk that
// stalls times out and is tried the same way. An upload that ends before it is whole
// (cancelled because the member left, or given up) is cancelled on the server (DELETE
// /uploads/videos/{id}), so it stops holding one of the member's 3 unfinished places.
import type { FeedVideo, NewVideoUpload } from "@/features/feed/api/types";
import { api, API_BASE_PATH, ApiError, errorTextFromBody, NO_RESPONSE_STATUS } from "@/lib/api-client";
import { getStoredSession } from "@/lib/session-store";

/** 4 MiB: the server takes at most 8 MiB a request. */
export const UPLOAD_CHUNK_BYTES = 4 * 1024 * 1024;
/** Tries after a broken transfer before giving up. */
export const UPLOAD_MAX_RETRIES = 5;
/** The catalogue's text for a broken transfer (spec 001 section 8). */
export const UPLOAD_FAILED_TEXT = "Erro no upload";
/** A chunk with no answer for 2 minutes is a stalled connection: tried again. */
export const UPLOAD_CHUNK_TIMEOUT_MS = 120_000;

const RETRY_BASE_DELAY_MS = 1000;
const RETRY_MAX_DELAY_MS = 15_000;

/** 1 s, 2 s, 4 s, ... up to 15 s. */
export function uploadRetryDelayMs(attempt: number): number {
  return Math.min(RETRY_BASE_DELAY_MS * 2 ** (attempt - 1), RETRY_MAX_DELAY_MS);
}

export interface UploadVideoOptions {
  /** Bytes the server holds or is receiving, of `total`. */
  onProgress?: (sent: number, total: number) => void;
  signal?: AbortSignal;
  chunkBytes?: number;
  maxRetries?: number;
  retryDelayMs?: (attempt: number) => number;
}

/** What one chunk's request ended in. */
type ChunkOutcome =
  | { kind: "sent"; video: FeedVideo }
  /** The server holds another offset than the one sent: go on from there. */
  | { kind: "conflict"; received: number }
  /** No answer, or the server's own failure: worth trying again. */
  | { kind: "broken" }
  /** Refused (size, type, rate limit, an upload no longer there): trying again will not help. */
  | { kind: "refused"; error: ApiError };

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function outcomeOf(status: number, text: string): ChunkOutcome {
  const body = parseJson(text);
  if (status >= 200 && status < 300 && typeof body === "object" && body !== null) {
    return { kind: "sent", video: body as FeedVideo };
  }
  if (status === 409 && typeof body === "object" && body !== null && "received" in body) {
    const { received } = body;
    if (typeof received === "number") return { kind: "conflict", received };
  }
  if (status === NO_RESPONSE_STATUS || status >= 500 || status < 400) return { kind: "broken" };
  return { kind: "refused", error: new ApiError(status, errorTextFromBody(body), { body }) };
}

function abortError(): DOMException {
  return new DOMException("The upload was cancelled.", "AbortError");
}

function sendChunk(
  id: number,
  offset: number,
  chunk: Blob,
  onSent: (loaded: number) => void,
  signal: AbortSignal | undefined,
): Promise<ChunkOutcome> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    const abort = () => request.abort();
    const settle = (finish: () => void) => {
      signal?.removeEventListener("abort", abort);
      finish();
    };
    request.open("PATCH", `${API_BASE_PATH}/uploads/videos/${id}`);
    request.setRequestHeader("Accept", "application/json");
    request.setRequestHeader("Content-Type", "application/offset+octet-stream");
    request.setRequestHeader("Upload-Offset", String(offset));
    request.timeout = UPLOAD_CHUNK_TIMEOUT_MS;
    const token = getStoredSession()?.token;
    if (token) request.setRequestHeader("Authorization", `Bearer ${token}`);
    request.upload.onprogress = (event) => onSent(event.loaded);
    request.onload = () => settle(() => resolve(outcomeOf(request.status, request.responseText)));
    request.onerror = () => settle(() => resolve({ kind: "broken" }));
    request.ontimeout = () => settle(() => resolve({ kind: "broken" }));
    request.onabort = () => settle(() => reject(abortError()));
    signal?.addEventListener("abort", abort);
    request.send(chunk);
  });
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError());
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", cancel);
      resolve();
    }, ms);
    const cancel = () => {
      clearTimeout(timer);
      reject(abortError());
    };
    signal?.addEventListener("abort", cancel, { once: true });
  });
}

/**
 * The upload as the server holds it now; null when it cannot say (still no connection, or
 * its own failure). An upload it no longer knows (removed as abandoned) ends the upload.
 */
async function currentUpload(id: number, signal: AbortSignal | undefined): Promise<FeedVideo | null> {
  try {
    return await api.get<FeedVideo>(`/videos/${id}`, { signal });
  } catch (error) {
    if (error instanceof ApiError && error.status >= 400 && error.status < 500) throw error;
    if (signal?.aborted) throw error;
    return null;
  }
}

/** Tells the server the upload will not go on; nobody waits for its answer. */
function cancelUpload(id: number): void {
  api.delete<void>(`/uploads/videos/${id}`).catch(() => undefined);
}

/**
 * Uploads `file` and answers the video once whole (`processing`, with its transcode job).
 * Rejects with the server's message when it refuses the file, with 'Erro no upload' after
 * `maxRetries` broken transfers in a row, and with an AbortError when `signal` aborts.
 */
export async function uploadVideo(file: File, options: UploadVideoOptions = {}): Promise<FeedVideo> {
  const {
    onProgress,
    signal,
    chunkBytes = UPLOAD_CHUNK_BYTES,
    maxRetries = UPLOAD_MAX_RETRIES,
    retryDelayMs = uploadRetryDelayMs,
  } = options;
  const request: NewVideoUpload = { name: file.name, size: file.size };
  const started = await api.post<FeedVideo>("/uploads/videos", request, { signal });
  let video: FeedVideo;
  try {
    video = await sendFile(file, started, { onProgress, signal, chunkBytes, maxRetries, retryDelayMs });
  } catch (error) {
    // Not whole: until told, the server counts it among the member's unfinished uploads.
    cancelUpload(started.id);
    throw error;
  }
  if (video.status === "failed") {
    throw new ApiError(422, video.failure ?? UPLOAD_FAILED_TEXT, { body: video });
  }
  return video;
}

type SendOptions = Pick<UploadVideoOptions, "onProgress" | "signal"> &
  Required<Pick<UploadVideoOptions, "chunkBytes" | "maxRetries" | "retryDelayMs">>;

/** Sends the file from where the server holds it until the upload is no longer `uploading`. */
async function sendFile(file: File, started: FeedVideo, options: SendOptions): Promise<FeedVideo> {
  const { onProgress, signal, chunkBytes, maxRetries, retryDelayMs } = options;
  const total = file.size;
  let video = started;
  let offset = video.received;
  let failures = 0;
  onProgress?.(offset, total);

  while (video.status === "uploading") {
    if (signal?.aborted) throw abortError();
    const start = offset;
    const chunk = file.slice(start, Math.min(start + chunkBytes, total));
    const outcome = await sendChunk(video.id, start, chunk, (loaded) => onProgress?.(start + loaded, total), signal);
    if (outcome.kind === "sent") {
      video = outcome.video;
      offset = video.received;
      failures = 0;
      onProgress?.(offset, total);
      continue;
    }
    if (outcome.kind === "refused") throw outcome.error;
    // A conflict counts too, so a server that keeps moving the offset cannot hold us forever.
    failures += 1;
    if (failures > maxRetries) throw new ApiError(NO_RESPONSE_STATUS, UPLOAD_FAILED_TEXT);
    if (outcome.kind === "conflict") {
      offset = outcome.received;
      onProgress?.(offset, total);
      // Whole already (the last chunk's answer was lost): only the server knows what came of it.
      if (offset >= total) video = (await currentUpload(video.id, signal)) ?? video;
      continue;
    }
    await pause(retryDelayMs(failures), signal);
    const current = await currentUpload(video.id, signal);
    if (current !== null) {
      video = current;
      offset = current.received;
      onProgress?.(offset, total);
    }
  }
  return video;
}

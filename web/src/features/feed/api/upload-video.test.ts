import { beforeEach, describe, expect, it, vi } from "vitest";
import {
  UPLOAD_CHUNK_TIMEOUT_MS,
  uploadRetryDelayMs,
  uploadVideo,
  UPLOAD_FAILED_TEXT,
} from "@/features/feed/api/upload-video";
import {
  buildVideo,
  CREATE_UPLOAD_CALL,
  stubChunkRequests,
  videoCall,
  type ChunkAnswer,
} from "@/features/feed/testing/feed-fixtures";
import { ApiError } from "@/lib/api-client";
import { jsonResponse, signIn } from "@/testing/fixtures";
import { stubApi } from "@/testing/stub-api";

const SIZE = 10;
const CHUNK = 4;
const file = () => new File([new Uint8Array(SIZE)], "passeio.mp4", { type: "video/mp4" });

const uploading = (received: number) =>
  buildVideo({ status: "uploading", size: SIZE, received, url: null, poster: null, durationMs: null });
const processing = buildVideo({ status: "processing", size: SIZE, received: SIZE, url: null, poster: null, jobId: "01JT" });

/** The server's answer to a chunk that arrived whole: what it holds now. */
function accepted(offset: number, size: number): ChunkAnswer {
  const received = offset + size;
  return { status: 200, body: received === SIZE ? processing : uploading(received) };
}

const offsetOf = (chunk: { headers: Record<string, string> }) => Number(chunk.headers["Upload-Offset"]);

/** The server's cancel of upload 9 (DELETE /uploads/videos/9). */
const CANCEL_UPLOAD_CALL = "DELETE /api/uploads/videos/9";
const cancelled = () => new Response(null, { status: 204 });

beforeEach(() => {
  signIn();
});

describe("uploadVideo", () => {
  it("creates the upload, then sends the file in chunks at their offsets, reporting progress", async () => {
    const api = stubApi({ [CREATE_UPLOAD_CALL]: () => jsonResponse(uploading(0), 201) });
    const chunks = stubChunkRequests((chunk) => accepted(offsetOf(chunk), chunk.size));
    const progress: number[] = [];

    const video = await uploadVideo(file(), { chunkBytes: CHUNK, onProgress: (sent) => progress.push(sent) });

    expect(video).toEqual(processing);
    expect(api.bodySentTo(CREATE_UPLOAD_CALL)).toEqual({ name: "passeio.mp4", size: SIZE });
    expect(chunks.sent.map((chunk) => [chunk.method, chunk.url, offsetOf(chunk), chunk.size])).toEqual([
      ["PATCH", "/api/uploads/videos/9", 0, 4],
      ["PATCH", "/api/uploads/videos/9", 4, 4],
      ["PATCH", "/api/uploads/videos/9", 8, 2],
    ]);
    expect(chunks.sent[0]?.headers).toMatchObject({
      "Content-Type": "application/offset+octet-stream",
      Authorization: "Bearer test-token",
    });
    expect(progress.at(-1)).toBe(SIZE);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(api.callsTo(CANCEL_UPLOAD_CALL)).toHaveLength(0);
  });

  it("gives each chunk 2 minutes, then sends it again as after a dropped connection", async () => {
    const api = stubApi({
      [CREATE_UPLOAD_CALL]: () => jsonResponse(uploading(0), 201),
      [videoCall(9)]: () => jsonResponse(uploading(0)),
    });
    const timeouts: number[] = [];
    // A connection that stalls on the first chunk: only the request's own timeout ends it.
    class StallingXhr {
      timeout = 0;
      status = 0;
      responseText = "";
      readonly upload = { onprogress: null };
      onload: (() => void) | null = null;
      onerror: (() => void) | null = null;
      ontimeout: (() => void) | null = null;
      onabort: (() => void) | null = null;
      open() {}
      setRequestHeader() {}
      abort() {}
      send() {
        timeouts.push(this.timeout);
        const stalled = timeouts.length === 1;
        setTimeout(() => {
          if (stalled) {
            this.ontimeout?.();
            return;
          }
          this.status = 200;
          this.responseText = JSON.stringify(processing);
          this.onload?.();
        }, 0);
      }
    }
    vi.stubGlobal("XMLHttpRequest", StallingXhr);

    const video = await uploadVideo(file(), { retryDelayMs: () => 0 });

    expect(video).toEqual(processing);
    expect(timeouts).toEqual([UPLOAD_CHUNK_TIMEOUT_MS, UPLOAD_CHUNK_TIMEOUT_MS]);
    expect(UPLOAD_CHUNK_TIMEOUT_MS).toBe(120_000);
    expect(api.callsTo(videoCall(9))).toHaveLength(1);
  });

  it("after a dropped connection waits, asks the server what it holds and goes on from there", async () => {
    // The second chunk arrived, but its answer was lost: the server holds 8 bytes.
    const api = stubApi({
      [CREATE_UPLOAD_CALL]: () => jsonResponse(uploading(0), 201),
      [videoCall(9)]: () => jsonResponse(uploading(8)),
    });
    const chunks = stubChunkRequests((chunk, index) => (index === 1 ? "network-error" : accepted(offsetOf(chunk), chunk.size)));
    const retryDelayMs = vi.fn(() => 0);

    const video = await uploadVideo(file(), { chunkBytes: CHUNK, retryDelayMs });

    expect(video.status).toBe("processing");
    expect(chunks.sent.map(offsetOf)).toEqual([0, 4, 8]);
    expect(retryDelayMs).toHaveBeenCalledExactlyOnceWith(1);
    expect(api.callsTo(videoCall(9))).toHaveLength(1);
  });

  it("sends the same chunk again when the server did not get it", async () => {
    stubApi({
      [CREATE_UPLOAD_CALL]: () => jsonResponse(uploading(0), 201),
      [videoCall(9)]: () => jsonResponse(uploading(4)),
    });
    const chunks = stubChunkRequests((chunk, index) =>
      index === 1 || index === 2 ? "network-error" : accepted(offsetOf(chunk), chunk.size),
    );

    await uploadVideo(file(), { chunkBytes: CHUNK, retryDelayMs: () => 0 });

    expect(chunks.sent.map(offsetOf)).toEqual([0, 4, 4, 4, 8]);
  });

  it("tries the same offset again while the server cannot say what it holds", async () => {
    const api = stubApi({
      [CREATE_UPLOAD_CALL]: () => jsonResponse(uploading(0), 201),
      [videoCall(9)]: () => jsonResponse({ messages: ["Erro interno no servidor"] }, 503),
    });
    const chunks = stubChunkRequests((chunk, index) => (index === 1 ? "network-error" : accepted(offsetOf(chunk), chunk.size)));

    await uploadVideo(file(), { chunkBytes: CHUNK, retryDelayMs: () => 0 });

    expect(chunks.sent.map(offsetOf)).toEqual([0, 4, 4, 8]);
    expect(api.callsTo(videoCall(9))).toHaveLength(1);
  });

  it("ends when the server no longer has the upload", async () => {
    stubApi({
      [CREATE_UPLOAD_CALL]: () => jsonResponse(uploading(0), 201),
      [videoCall(9)]: () => jsonResponse({ messages: ["Vídeo não encontrado."] }, 404),
    });
    const chunks = stubChunkRequests(() => "network-error");

    await expect(uploadVideo(file(), { chunkBytes: CHUNK, retryDelayMs: () => 0 })).rejects.toThrow("Vídeo não encontrado.");
    expect(chunks.sent).toHaveLength(1);
  });

  it("goes on from the offset a 409 gives", async () => {
    stubApi({ [CREATE_UPLOAD_CALL]: () => jsonResponse(uploading(0), 201) });
    const chunks = stubChunkRequests((chunk, index) =>
      index === 1
        ? { status: 409, body: { messages: ["O envio não continua deste ponto."], received: 8 } }
        : accepted(offsetOf(chunk), chunk.size),
    );

    const video = await uploadVideo(file(), { chunkBytes: CHUNK, retryDelayMs: () => 0 });

    expect(video.status).toBe("processing");
    expect(chunks.sent.map(offsetOf)).toEqual([0, 4, 8]);
  });

  it("asks the server what came of an upload a 409 says is whole", async () => {
    const api = stubApi({
      [CREATE_UPLOAD_CALL]: () => jsonResponse(uploading(0), 201),
      [videoCall(9)]: () => jsonResponse(processing),
    });
    const chunks = stubChunkRequests((chunk, index) =>
      index === 2
        ? { status: 409, body: { messages: ["O envio não continua deste ponto."], received: SIZE } }
        : accepted(offsetOf(chunk), chunk.size),
    );

    const video = await uploadVideo(file(), { chunkBytes: CHUNK, retryDelayMs: () => 0 });

    expect(video).toEqual(processing);
    expect(chunks.sent.map(offsetOf)).toEqual([0, 4, 8]);
    expect(api.callsTo(videoCall(9))).toHaveLength(1);
  });

  it("gives up with 'Erro no upload' after the retries, each waiting longer, and cancels the upload", async () => {
    const api = stubApi({
      [CREATE_UPLOAD_CALL]: () => jsonResponse(uploading(0), 201),
      [videoCall(9)]: () => jsonResponse(uploading(0)),
      [CANCEL_UPLOAD_CALL]: cancelled,
    });
    const chunks = stubChunkRequests(() => "network-error");
    const retryDelayMs = vi.fn(() => 0);

    const upload = uploadVideo(file(), { chunkBytes: CHUNK, maxRetries: 3, retryDelayMs });

    await expect(upload).rejects.toEqual(new ApiError(0, UPLOAD_FAILED_TEXT));
    expect(chunks.sent).toHaveLength(4);
    expect(retryDelayMs.mock.calls).toEqual([[1], [2], [3]]);
    expect(api.callsTo(CANCEL_UPLOAD_CALL)).toHaveLength(1);
  });

  it("stops at once with the server's message when it refuses the file", async () => {
    stubApi({ [CREATE_UPLOAD_CALL]: () => jsonResponse(uploading(0), 201) });
    const chunks = stubChunkRequests((chunk, index) =>
      index === 2 ? { status: 422, body: { messages: ["Tamanho ou formato inválido"] } } : accepted(offsetOf(chunk), chunk.size),
    );

    const upload = uploadVideo(file(), { chunkBytes: CHUNK, retryDelayMs: () => 0 });

    await expect(upload).rejects.toThrow("Tamanho ou formato inválido");
    expect(chunks.sent).toHaveLength(3);
  });

  it("refuses with the server's message when the upload cannot start", async () => {
    stubApi({
      [CREATE_UPLOAD_CALL]: () =>
        jsonResponse({ messages: ["Muitas ações em pouco tempo. Aguarde alguns minutos e tente novamente."] }, 429),
    });
    const chunks = stubChunkRequests(() => "network-error");

    await expect(uploadVideo(file())).rejects.toThrow("Muitas ações em pouco tempo.");
    expect(chunks.sent).toHaveLength(0);
  });

  it("stops the request under way when it is cancelled, and tells the server without waiting", async () => {
    const api = stubApi({
      [CREATE_UPLOAD_CALL]: () => jsonResponse(uploading(0), 201),
      // The server's answer never comes: the upload has ended all the same.
      [CANCEL_UPLOAD_CALL]: () => new Promise<Response>(() => undefined),
    });
    const chunks = stubChunkRequests(() => new Promise<ChunkAnswer>(() => undefined));
    const controller = new AbortController();
    const progress: number[] = [];

    const upload = uploadVideo(file(), { chunkBytes: CHUNK, signal: controller.signal, onProgress: (sent) => progress.push(sent) });
    await vi.waitFor(() => expect(chunks.sent).toHaveLength(1));
    chunks.progress(2);
    controller.abort();

    await expect(upload).rejects.toMatchObject({ name: "AbortError" });
    expect(progress).toEqual([0, 2]);
    expect(api.callsTo(CANCEL_UPLOAD_CALL)).toHaveLength(1);
    expect(api.authorizationSentTo(CANCEL_UPLOAD_CALL)).toBe("Bearer test-token");
  });

  it("ends quietly when the server cannot be told of the cancel", async () => {
    const api = stubApi({
      [CREATE_UPLOAD_CALL]: () => jsonResponse(uploading(0), 201),
      [CANCEL_UPLOAD_CALL]: () => jsonResponse({ messages: ["Erro interno no servidor"] }, 500),
    });
    stubChunkRequests(() => ({ status: 422, body: { messages: ["Tamanho ou formato inválido"] } }));

    await expect(uploadVideo(file(), { chunkBytes: CHUNK })).rejects.toThrow("Tamanho ou formato inválido");
    await vi.waitFor(() => expect(api.callsTo(CANCEL_UPLOAD_CALL)).toHaveLength(1));
  });

  it("waits 1 s, then twice as long each time, up to 15 s", () => {
    expect([1, 2, 3, 4, 5, 6].map(uploadRetryDelayMs)).toEqual([1000, 2000, 4000, 8000, 15000, 15000]);
  });
});

import { fireEvent, screen, waitFor } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import {
  buildVideo,
  CREATE_UPLOAD_CALL,
  FEED_PATH,
  feedCall,
  feedResponse,
  POST_VIDEO_CALL,
  stubChunkRequests,
  type ChunkAnswer,
} from "@/features/feed/testing/feed-fixtures";
import { buildWalletBalance, jsonResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { stubApi } from "@/testing/stub-api";

const BALANCE = "GET /api/users-points/1";
const CANCEL_UPLOAD_CALL = "DELETE /api/uploads/videos/9";
const SIZE = 10;

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  signIn();
});

function stubMural() {
  return stubApi({
    [BALANCE]: () => jsonResponse(buildWalletBalance()),
    [feedCall()]: () => feedResponse([]),
    [CREATE_UPLOAD_CALL]: () => jsonResponse(buildVideo({ status: "uploading", size: SIZE, received: 0, url: null }), 201),
    [CANCEL_UPLOAD_CALL]: () => new Response(null, { status: 204 }),
  });
}

async function publishVideo() {
  await screen.findByText("Ainda não há posts no mural. Seja o primeiro a publicar!");
  const video = new File([new Uint8Array(SIZE)], "passeio.mp4", { type: "video/mp4" });
  fireEvent.change(screen.getByLabelText("Escolher vídeo"), { target: { files: [video] } });
  fireEvent.click(screen.getByRole("button", { name: "Publicar" }));
}

describe("the post box's video upload", () => {
  it("is cancelled on the server when the member leaves the Mural mid-upload, so it holds no place", async () => {
    const api = stubMural();
    const chunks = stubChunkRequests(() => new Promise<ChunkAnswer>(() => undefined));
    const { page } = renderApp({ path: FEED_PATH });
    await publishVideo();
    await waitFor(() => expect(chunks.sent).toHaveLength(1));
    chunks.progress(3);

    await page.navigate("/homepage/pagina-que-nao-existe");

    await waitFor(() => expect(chunks.aborted()).toBe(1));
    await waitFor(() => expect(api.callsTo(CANCEL_UPLOAD_CALL)).toHaveLength(1));
    expect(api.callsTo(POST_VIDEO_CALL)).toHaveLength(0);
  });

  it("is not cancelled once whole, when leaving only stops the post", async () => {
    const api = stubMural();
    stubChunkRequests(() => ({ status: 200, body: buildVideo({ status: "processing", size: SIZE, received: SIZE }) }));
    const { page } = renderApp({ path: FEED_PATH });
    await publishVideo();
    await waitFor(() => expect(api.callsTo(POST_VIDEO_CALL)).toHaveLength(1));

    await page.navigate("/homepage/pagina-que-nao-existe");

    expect(await screen.findByRole("heading", { name: "Página não encontrada" })).toBeInTheDocument();
    expect(api.callsTo(CANCEL_UPLOAD_CALL)).toHaveLength(0);
  });
});

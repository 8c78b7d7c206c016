import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import {
  buildPost,
  buildPosts,
  buildVideo,
  CREATE_UPLOAD_CALL,
  deletePostCall,
  FEED_PATH,
  feedCall,
  feedResponse,
  LIKE_POST_CALL,
  MARIA,
  POST_IMAGE_CALL,
  POST_TEXT_CALL,
  POST_VIDEO_CALL,
  reportPostCall,
  stubChunkRequests,
  UNLIKE_POST_CALL,
  type ChunkAnswer,
} from "@/features/feed/testing/feed-fixtures";
import { buildJob } from "@/features/jobs/testing/job-fixtures";
import type { FeedPost } from "@/features/feed/api/types";
import { buildStation, buildWalletBalance, jsonResponse, signIn } from "@/testing/fixtures";
import { stubIntersectionObserver } from "@/testing/intersection-observer";
import { renderApp } from "@/testing/render-app";
import { stubApi, type ApiHandler } from "@/testing/stub-api";

const BALANCE = "GET /api/users-points/1";

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  signIn();
});

/** The feed's first page answers `posts` (the end of the feed unless `next`), and `handlers` the rest. */
function stubFeed(posts: FeedPost[] | ApiHandler, handlers: Record<string, ApiHandler> = {}, next: string | null = null) {
  return stubApi({
    [BALANCE]: () => jsonResponse(buildWalletBalance()),
    [feedCall()]: typeof posts === "function" ? posts : () => feedResponse(posts, next),
    ...handlers,
  });
}

/** Answers `answers` in turn, the last one again once they run out. */
function inTurn(...answers: Array<() => Response | Promise<Response>>): ApiHandler {
  let calls = 0;
  return () => {
    const answer = answers[Math.min(calls, answers.length - 1)];
    calls += 1;
    return answer ? answer() : jsonResponse(null);
  };
}

function deferred<T>() {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

const postList = () => screen.findByRole("list", { name: "Posts do mural" });
const postBy = (name: string) => screen.getByRole("article", { name });
const notifications = () => screen.getByRole("region", { name: "Notificações" });
const textBox = () => screen.getByLabelText("O que você quer compartilhar?");
const publishButton = () => screen.getByRole("button", { name: "Publicar" });

describe("the Mural", () => {
  it("is not found where the station has no Mural", async () => {
    const api = stubFeed([]);
    renderApp({ path: FEED_PATH, station: buildStation({ feed_access: false }) });

    expect(await screen.findByRole("heading", { name: "Página não encontrada" })).toBeInTheDocument();
    expect(api.callsTo(feedCall())).toHaveLength(0);
  });

  it("shows placeholders while the posts load", async () => {
    stubFeed(() => new Promise<Response>(() => undefined));
    renderApp({ path: FEED_PATH });

    expect(await screen.findByRole("heading", { name: "Mural" })).toBeInTheDocument();
    expect(screen.getByRole("status", { name: "Carregando posts" })).toBeInTheDocument();
  });

  it("invites the first post when there is none", async () => {
    stubFeed([]);
    renderApp({ path: FEED_PATH });

    expect(await screen.findByText("Ainda não há posts no mural. Seja o primeiro a publicar!")).toBeInTheDocument();
    expect(screen.queryByText("Isso é tudo por enquanto!")).not.toBeInTheDocument();
  });

  it("shows each post's author, picture, text, image and likes", async () => {
    stubFeed([
      buildPost({ id: 42, image: "/api/media/feed/7/01j.jpg", likes: 1 }),
      buildPost({ id: 41, user: MARIA, userAuthor: true, description: "Meu post", likes: 0 }),
    ]);
    const { container } = renderApp({ path: FEED_PATH });

    const [first, second] = within(await postList()).getAllByRole("article");
    expect(first).toHaveAccessibleName("João Souza");
    expect(within(first!).getByText("Bom dia, clube!")).toBeInTheDocument();
    expect(within(first!).getByRole("img", { name: "Imagem do post de João Souza" })).toHaveAttribute(
      "src",
      "/api/media/feed/7/01j.jpg",
    );
    expect(container.querySelector('img[src="/api/media/users/2/a.jpg"]')).toBeInTheDocument();
    expect(within(first!).getByRole("button", { name: "Curtir: 1 curtida" })).toHaveTextContent("1");
    expect(within(first!).getByRole("button", { name: "Comentários (3)" })).toBeInTheDocument();
    expect(within(second!).getByText("Meu post")).toBeInTheDocument();
    expect(within(second!).getByRole("button", { name: "Curtir: 0 curtidas" })).toHaveAttribute("aria-pressed", "false");
  });

  it("asks 3 posts, then 3 older ones once the end is half in sight, and says when that is all", async () => {
    const observer = stubIntersectionObserver();
    const options: unknown[] = [];
    const Observer = globalThis.IntersectionObserver;
    vi.stubGlobal(
      "IntersectionObserver",
      class extends Observer {
        constructor(callback: IntersectionObserverCallback, init?: IntersectionObserverInit) {
          super(callback, init);
          options.push(init);
        }
      },
    );
    const api = stubFeed(buildPosts(3), { [feedCall("c1")]: () => feedResponse(buildPosts(2, 97, 4)) }, "c1");
    renderApp({ path: FEED_PATH });

    const list = await postList();
    expect(within(list).getAllByRole("article")).toHaveLength(3);
    expect(screen.queryByText("Isso é tudo por enquanto!")).not.toBeInTheDocument();
    expect(options).toEqual([{ threshold: 0.5 }]);

    await observer.scrollIntoView();

    expect(await screen.findByText("Post 5")).toBeInTheDocument();
    expect(within(list).getAllByRole("article")).toHaveLength(5);
    expect(screen.getByText("Isso é tudo por enquanto!")).toBeInTheDocument();
    expect(api.callsTo(feedCall("c1"))).toHaveLength(1);
    expect(screen.queryByRole("button", { name: "Carregar mais posts" })).not.toBeInTheDocument();
  });

  it("loads the next posts with the button too", async () => {
    stubIntersectionObserver();
    stubFeed(buildPosts(3), { [feedCall("c1")]: () => feedResponse(buildPosts(1, 97, 4)) }, "c1");
    renderApp({ path: FEED_PATH });
    await postList();

    fireEvent.click(screen.getByRole("button", { name: "Carregar mais posts" }));

    expect(await screen.findByText("Post 4")).toBeInTheDocument();
    expect(screen.getByText("Isso é tudo por enquanto!")).toBeInTheDocument();
  });

  it("shows the server's message when the feed cannot be read, and tries again", async () => {
    stubFeed(
      inTurn(
        () => jsonResponse({ messages: ["Você não possui autorização para acessar esta página."] }, 403),
        () => feedResponse([buildPost()]),
      ),
    );
    renderApp({ path: FEED_PATH });

    expect(await screen.findByRole("alert")).toHaveTextContent("Não foi possível carregar o mural.");
    expect(within(notifications()).getByText("Você não possui autorização para acessar esta página.")).toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Tentar novamente" }));

    expect(await screen.findByText("Bom dia, clube!")).toBeInTheDocument();
  });
});

describe("the post box", () => {
  it("counts the characters up to 320 and publishes the text, then empties and reads the feed again", async () => {
    const api = stubFeed([], { [POST_TEXT_CALL]: () => jsonResponse(buildPost({ userAuthor: true }), 201) });
    renderApp({ path: FEED_PATH });
    await screen.findByText("Ainda não há posts no mural. Seja o primeiro a publicar!");

    expect(textBox()).toHaveAttribute("maxLength", "320");
    expect(screen.getByText("0/320")).toBeInTheDocument();
    expect(publishButton()).toBeDisabled();
    fireEvent.change(textBox(), { target: { value: "   " } });
    expect(publishButton()).toBeDisabled();

    fireEvent.change(textBox(), { target: { value: " Bom dia, clube! " } });
    expect(screen.getByText("17/320")).toBeInTheDocument();
    fireEvent.click(publishButton());

    await waitFor(() => expect(textBox()).toHaveValue(""));
    expect(api.bodiesOf(POST_TEXT_CALL)).toEqual([{ description: "Bom dia, clube!", station_id: 7 }]);
    await waitFor(() => expect(api.callsTo(feedCall())).toHaveLength(2));
    expect(screen.getByText("0/320")).toBeInTheDocument();
  });

  it("keeps the text and shows the server's message when the post is refused", async () => {
    stubFeed([], {
      [POST_TEXT_CALL]: () =>
        jsonResponse({ messages: ["Muitas ações em pouco tempo. Aguarde alguns minutos e tente novamente."] }, 429),
    });
    renderApp({ path: FEED_PATH });
    await screen.findByText("Ainda não há posts no mural. Seja o primeiro a publicar!");

    fireEvent.change(textBox(), { target: { value: "Oi" } });
    fireEvent.click(publishButton());

    expect(
      await within(notifications()).findByText("Muitas ações em pouco tempo. Aguarde alguns minutos e tente novamente."),
    ).toBeInTheDocument();
    expect(textBox()).toHaveValue("Oi");
  });

  it("publishes an image as base64 with a preview, the text optional", async () => {
    const api = stubFeed([], { [POST_IMAGE_CALL]: () => jsonResponse(buildPost({ userAuthor: true }), 201) });
    renderApp({ path: FEED_PATH });
    await screen.findByText("Ainda não há posts no mural. Seja o primeiro a publicar!");

    const image = new File([new Uint8Array([137, 80, 78, 71])], "foto.png", { type: "image/png" });
    fireEvent.change(screen.getByLabelText("Escolher imagem"), { target: { files: [image] } });

    const preview = await screen.findByRole("img", { name: "Prévia da imagem" });
    expect(preview.getAttribute("src")).toMatch(/^data:image\/png;base64,/);
    fireEvent.click(publishButton());

    await waitFor(() => expect(api.callsTo(POST_IMAGE_CALL)).toHaveLength(1));
    expect(api.bodySentTo(POST_IMAGE_CALL)).toEqual({
      base64: preview.getAttribute("src"),
      imageType: "image/png",
      description: "",
      station_id: 7,
    });
    await waitFor(() => expect(screen.queryByRole("img", { name: "Prévia da imagem" })).not.toBeInTheDocument());
  });

  it("takes an image or a video, never both: choosing one clears the other", async () => {
    stubFeed([]);
    renderApp({ path: FEED_PATH });
    await screen.findByText("Ainda não há posts no mural. Seja o primeiro a publicar!");

    const image = new File([new Uint8Array(4)], "foto.jpg", { type: "image/jpeg" });
    fireEvent.change(screen.getByLabelText("Escolher imagem"), { target: { files: [image] } });
    await screen.findByRole("img", { name: "Prévia da imagem" });

    const video = new File([new Uint8Array(8)], "passeio.MOV", { type: "video/quicktime" });
    fireEvent.change(screen.getByLabelText("Escolher vídeo"), { target: { files: [video] } });

    expect(screen.getByText("passeio.MOV")).toBeInTheDocument();
    expect(screen.queryByRole("img", { name: "Prévia da imagem" })).not.toBeInTheDocument();

    fireEvent.change(screen.getByLabelText("Escolher imagem"), { target: { files: [image] } });
    await screen.findByRole("img", { name: "Prévia da imagem" });
    expect(screen.queryByText("passeio.MOV")).not.toBeInTheDocument();
  });

  it.each([
    ["a GIF", "Escolher imagem", new File([new Uint8Array(4)], "anim.gif", { type: "image/gif" })],
    ["an image over 1 200 000 bytes", "Escolher imagem", new File([new Uint8Array(1_200_001)], "big.png", { type: "image/png" })],
    ["an .avi video", "Escolher vídeo", new File([new Uint8Array(4)], "filme.avi", { type: "video/x-msvideo" })],
  ])("only logs %s, with no message to the member", async (_what, label, file) => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    stubFeed([]);
    renderApp({ path: FEED_PATH });
    await screen.findByText("Ainda não há posts no mural. Seja o primeiro a publicar!");

    fireEvent.change(screen.getByLabelText(label), { target: { files: [file] } });

    await waitFor(() => expect(warn).toHaveBeenCalledOnce());
    expect(screen.queryByRole("img", { name: "Prévia da imagem" })).not.toBeInTheDocument();
    expect(screen.queryByText(file.name)).not.toBeInTheDocument();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    expect(publishButton()).toBeDisabled();
    warn.mockRestore();
  });

  it("uploads a video with its progress, the form disabled meanwhile, then posts it and says it is processing", async () => {
    const size = 10;
    const firstChunk = deferred<ChunkAnswer>();
    const api = stubFeed([], {
      [CREATE_UPLOAD_CALL]: () => jsonResponse(buildVideo({ status: "uploading", size, received: 0, url: null }), 201),
      [POST_VIDEO_CALL]: () => jsonResponse(buildPost({ userAuthor: true, published: false }), 201),
    });
    const chunks = stubChunkRequests(() => firstChunk.promise);
    renderApp({ path: FEED_PATH });
    await screen.findByText("Ainda não há posts no mural. Seja o primeiro a publicar!");

    fireEvent.change(textBox(), { target: { value: "Nosso passeio" } });
    const video = new File([new Uint8Array(size)], "passeio.mp4", { type: "video/mp4" });
    fireEvent.change(screen.getByLabelText("Escolher vídeo"), { target: { files: [video] } });
    fireEvent.click(publishButton());

    expect(await screen.findByText(/^Subindo o vídeo\.\.\./)).toBeInTheDocument();
    await waitFor(() => expect(chunks.sent).toHaveLength(1));
    expect(textBox()).toBeDisabled();
    expect(publishButton()).toBeDisabled();
    expect(screen.getByLabelText("Escolher vídeo")).toBeDisabled();
    chunks.progress(4);
    await waitFor(() => expect(screen.getByRole("progressbar", { name: "Subindo o vídeo..." })).toHaveAttribute("aria-valuenow", "40"));

    firstChunk.resolve({ status: 200, body: buildVideo({ status: "processing", size, received: size, jobId: "01JT" }) });

    expect(await screen.findByText("Seu vídeo está sendo processado e pode levar alguns minutos para aparecer.")).toBeInTheDocument();
    expect(api.bodiesOf(POST_VIDEO_CALL)).toEqual([{ description: "Nosso passeio", video_id: 9, station_id: 7 }]);
    expect(screen.queryByText(/^Subindo o vídeo/)).not.toBeInTheDocument();
    expect(textBox()).toHaveValue("");
    expect(textBox()).toBeEnabled();
    expect(screen.queryByText("passeio.mp4")).not.toBeInTheDocument();
  });

  it("stops the upload, without a message, when the member leaves the Mural", async () => {
    const size = 10;
    stubFeed([], {
      [CREATE_UPLOAD_CALL]: () => jsonResponse(buildVideo({ status: "uploading", size, received: 0, url: null }), 201),
    });
    const chunks = stubChunkRequests(() => new Promise<ChunkAnswer>(() => undefined));
    const { page } = renderApp({ path: FEED_PATH });
    await screen.findByText("Ainda não há posts no mural. Seja o primeiro a publicar!");

    const video = new File([new Uint8Array(size)], "passeio.mp4", { type: "video/mp4" });
    fireEvent.change(screen.getByLabelText("Escolher vídeo"), { target: { files: [video] } });
    fireEvent.click(publishButton());
    await waitFor(() => expect(chunks.sent).toHaveLength(1));
    chunks.progress(3);

    await page.navigate("/homepage/pagina-que-nao-existe");

    expect(await screen.findByRole("heading", { name: "Página não encontrada" })).toBeInTheDocument();
    await waitFor(() => expect(chunks.aborted()).toBe(1));
    expect(within(notifications()).queryByText("Erro")).not.toBeInTheDocument();
  });

  it("does not upload the video again when only the post failed", async () => {
    const size = 4;
    const api = stubFeed([], {
      [CREATE_UPLOAD_CALL]: () => jsonResponse(buildVideo({ status: "uploading", size, received: 0, url: null }), 201),
      [POST_VIDEO_CALL]: inTurn(
        () => jsonResponse({ messages: ["Muitas ações em pouco tempo. Aguarde alguns minutos e tente novamente."] }, 429),
        () => jsonResponse(buildPost({ userAuthor: true, published: false }), 201),
      ),
    });
    stubChunkRequests(() => ({ status: 200, body: buildVideo({ status: "processing", size, received: size }) }));
    renderApp({ path: FEED_PATH });
    await screen.findByText("Ainda não há posts no mural. Seja o primeiro a publicar!");

    const video = new File([new Uint8Array(size)], "passeio.mp4", { type: "video/mp4" });
    fireEvent.change(screen.getByLabelText("Escolher vídeo"), { target: { files: [video] } });
    fireEvent.click(publishButton());
    await within(notifications()).findByText(/^Muitas ações em pouco tempo/);
    await waitFor(() => expect(publishButton()).toBeEnabled());
    fireEvent.click(publishButton());

    expect(await screen.findByText("Seu vídeo está sendo processado e pode levar alguns minutos para aparecer.")).toBeInTheDocument();
    expect(api.callsTo(CREATE_UPLOAD_CALL)).toHaveLength(1);
    expect(api.callsTo(POST_VIDEO_CALL)).toHaveLength(2);
  });
});

describe("a post's video", () => {
  it("plays once ready, its poster shown until then", async () => {
    stubFeed([buildPost({ video: buildVideo() })]);
    renderApp({ path: FEED_PATH });

    const video = await screen.findByLabelText("Vídeo do post de João Souza");
    expect(video.tagName).toBe("VIDEO");
    expect(video).toHaveAttribute("src", "/api/media/feed/videos/01jv.mp4");
    expect(video).toHaveAttribute("poster", "/api/media/feed/videos/01jv.jpg");
    expect(video).toHaveAttribute("preload", "none");
    expect(video).toHaveAttribute("controls");
  });

  it("shows its author the transcode job's percent while it is processed", async () => {
    const processing = buildVideo({ status: "processing", url: null, poster: null, jobId: "01JT" });
    stubFeed([buildPost({ user: MARIA, userAuthor: true, published: false, video: processing })], {
      "GET /api/jobs/01JT": () => jsonResponse(buildJob({ id: "01JT", kind: "video.transcode", progress: 40 })),
    });
    renderApp({ path: FEED_PATH });

    expect(await screen.findByText("Processando o vídeo... 40%")).toBeInTheDocument();
    expect(screen.getByRole("progressbar", { name: "Processando o vídeo..." })).toHaveAttribute("aria-valuenow", "40");
    expect(screen.getByText("Só você vê este post até o vídeo ficar pronto.")).toBeInTheDocument();
  });

  it("reads the feed again when the job ends, and the video plays", async () => {
    const processing = buildVideo({ status: "processing", url: null, poster: null, jobId: "01JT" });
    const own = { user: MARIA, userAuthor: true };
    const api = stubFeed(
      inTurn(
        () => feedResponse([buildPost({ ...own, published: false, video: processing })]),
        () => feedResponse([buildPost({ ...own, video: buildVideo() })]),
      ),
      { "GET /api/jobs/01JT": () => jsonResponse(buildJob({ id: "01JT", state: "succeeded", progress: 100 })) },
    );
    renderApp({ path: FEED_PATH });

    expect(await screen.findByLabelText("Vídeo do post de Maria Silva")).toHaveAttribute("src", "/api/media/feed/videos/01jv.mp4");
    expect(api.callsTo(feedCall())).toHaveLength(2);
  });

  it("tells its author why it failed", async () => {
    const failed = buildVideo({ status: "failed", url: null, failure: "O arquivo não é um vídeo que possamos exibir." });
    stubFeed([buildPost({ user: MARIA, userAuthor: true, published: false, video: failed })]);
    renderApp({ path: FEED_PATH });

    expect(await screen.findByRole("alert")).toHaveTextContent("O arquivo não é um vídeo que possamos exibir.");
  });
});

describe("likes on posts", () => {
  it("moves the count at once, then likes; unliking answers the same way", async () => {
    const liked = deferred<Response>();
    const api = stubFeed([buildPost()], {
      [LIKE_POST_CALL]: () => liked.promise,
      [UNLIKE_POST_CALL]: () => jsonResponse({ likes: 12, userLiked: false }),
    });
    renderApp({ path: FEED_PATH });
    await postList();

    fireEvent.click(screen.getByRole("button", { name: "Curtir: 12 curtidas" }));

    const like = await screen.findByRole("button", { name: "Curtir: 13 curtidas" });
    expect(like).toHaveAttribute("aria-pressed", "true");
    await waitFor(() => expect(api.bodiesOf(LIKE_POST_CALL)).toEqual([{ post: 41 }]));
    // A second click while the call runs is ignored.
    fireEvent.click(like);
    expect(api.callsTo(UNLIKE_POST_CALL)).toHaveLength(0);
    liked.resolve(jsonResponse({ likes: 20, userLiked: true }));

    const counted = await screen.findByRole("button", { name: "Curtir: 20 curtidas" });
    fireEvent.click(counted);

    expect(await screen.findByRole("button", { name: "Curtir: 12 curtidas" })).toHaveAttribute("aria-pressed", "false");
    expect(api.bodiesOf(UNLIKE_POST_CALL)).toEqual([{ post: 41 }]);
  });

  it("puts the count back and says why when the like fails", async () => {
    const refused = deferred<Response>();
    stubFeed([buildPost({ likes: 1, userLiked: true })], { [UNLIKE_POST_CALL]: () => refused.promise });
    renderApp({ path: FEED_PATH });
    await postList();

    fireEvent.click(screen.getByRole("button", { name: "Curtir: 1 curtida" }));
    expect(await screen.findByRole("button", { name: "Curtir: 0 curtidas" })).toHaveAttribute("aria-pressed", "false");
    refused.resolve(jsonResponse({ messages: ["Muitas ações em pouco tempo. Aguarde alguns minutos e tente novamente."] }, 429));

    expect(await screen.findByRole("button", { name: "Curtir: 1 curtida" })).toHaveAttribute("aria-pressed", "true");
    expect(within(notifications()).getByText("Erro")).toBeInTheDocument();
    expect(within(notifications()).getByText(/^Muitas ações em pouco tempo/)).toBeInTheDocument();
  });

  it("says 'Erro interno no servidor' when the like gets no answer", async () => {
    stubFeed([buildPost()]);
    renderApp({ path: FEED_PATH });
    await postList();

    fireEvent.click(screen.getByRole("button", { name: "Curtir: 12 curtidas" }));

    expect(await within(notifications()).findByText("Erro interno no servidor")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Curtir: 12 curtidas" })).toHaveAttribute("aria-pressed", "false");
  });
});

describe("deleting and reporting posts", () => {
  it("offers the delete icon on one's own posts only, and asks first", async () => {
    const api = stubFeed(
      inTurn(
        () => feedResponse([buildPost({ id: 42 }), buildPost({ id: 41, user: MARIA, userAuthor: true, description: "Meu post" })]),
        () => feedResponse([buildPost({ id: 42 })]),
      ),
      { [deletePostCall(41)]: () => new Response(null, { status: 204 }) },
    );
    renderApp({ path: FEED_PATH });
    await postList();

    expect(within(postBy("João Souza")).queryByRole("button", { name: "Deletar post" })).not.toBeInTheDocument();
    const own = postBy("Maria Silva");
    fireEvent.click(within(own).getByRole("button", { name: "Deletar post" }));

    const dialog = screen.getByRole("dialog", { name: "Você vai deletar esse post" });
    expect(dialog).toHaveTextContent("Tem certeza?");
    expect(within(dialog).getAllByRole("button").map((button) => button.textContent)).toEqual(["Cancelar", "Sim"]);
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancelar" }));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(api.callsTo(deletePostCall(41))).toHaveLength(0);

    fireEvent.click(within(own).getByRole("button", { name: "Deletar post" }));
    fireEvent.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Sim" }));

    await waitFor(() => expect(screen.queryByText("Meu post")).not.toBeInTheDocument());
    expect(api.callsTo(deletePostCall(41))).toHaveLength(1);
    expect(api.callsTo(feedCall())).toHaveLength(2);
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  it("shows why a post could not be deleted", async () => {
    stubFeed([buildPost({ user: MARIA, userAuthor: true })], {
      [deletePostCall(41)]: () => jsonResponse({ messages: ["Apenas o autor pode apagar."] }, 403),
    });
    renderApp({ path: FEED_PATH });
    await postList();

    fireEvent.click(screen.getByRole("button", { name: "Deletar post" }));
    fireEvent.click(screen.getByRole("button", { name: "Sim" }));

    expect(await within(notifications()).findByText("Apenas o autor pode apagar.")).toBeInTheDocument();
    expect(screen.getByText("Bom dia, clube!")).toBeInTheDocument();
  });

  it("reports another's post with an optional reason", async () => {
    const api = stubFeed([buildPost()], { [reportPostCall(41)]: () => jsonResponse({ reported: true }, 201) });
    renderApp({ path: FEED_PATH });
    await postList();

    fireEvent.click(within(postBy("João Souza")).getByRole("button", { name: "Denunciar" }));
    const dialog = screen.getByRole("dialog", { name: "Denunciar este post" });
    fireEvent.change(within(dialog).getByLabelText("Motivo (opcional)"), { target: { value: " Ofensivo " } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Denunciar" }));

    expect(await within(notifications()).findByText("Denúncia enviada. Nossa equipe vai analisar.")).toBeInTheDocument();
    expect(within(notifications()).getByText("Sucesso")).toBeInTheDocument();
    expect(api.bodiesOf(reportPostCall(41))).toEqual([{ reason: "Ofensivo" }]);
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  it("has no report on one's own post", async () => {
    stubFeed([buildPost({ user: MARIA, userAuthor: true })]);
    renderApp({ path: FEED_PATH });
    await postList();

    expect(screen.queryByRole("button", { name: "Denunciar" })).not.toBeInTheDocument();
  });
});

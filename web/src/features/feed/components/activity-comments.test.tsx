import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { activityCall, buildActivity, publicActivityCall } from "@/features/activities/testing/activity-fixtures";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import {
  activityCommentsCall,
  activityLikesCall,
  ADD_ACTIVITY_COMMENT_CALL,
  ADD_REPLY_CALL,
  buildComment,
  deleteCommentCall,
  LIKE_ACTIVITY_CALL,
  MARIA,
  UNLIKE_ACTIVITY_CALL,
} from "@/features/feed/testing/feed-fixtures";
import type { FeedComment } from "@/features/feed/api/types";
import { buildWalletBalance, jsonResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { stubApi, type ApiHandler } from "@/testing/stub-api";

const ACTIVITY = buildActivity({ comments_and_likes_enabled: true, name: "Conheça a história do clube" });
const LIKES = activityLikesCall(12);
const COMMENTS = activityCommentsCall(12);

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
});

function stubActivity(handlers: Record<string, ApiHandler> = {}, activity = ACTIVITY) {
  return stubApi({
    "GET /api/users-points/1": () => jsonResponse(buildWalletBalance()),
    [activityCall(activity.id)]: () => jsonResponse(activity),
    [LIKES]: () => jsonResponse({ likes: 4, userLiked: false }),
    ...handlers,
  });
}

function commentsAnswer(comments: FeedComment[]): ApiHandler {
  return () => jsonResponse(comments);
}

async function renderActivity() {
  renderApp({ path: "/homepage/atividades/12" });
  return screen.findByRole("region", { name: "Comentários e curtidas" });
}

async function openComments() {
  const section = await renderActivity();
  fireEvent.click(within(section).getByRole("button", { name: "Comentários" }));
  return screen.findByRole("region", { name: "Comentários" });
}

const notifications = () => screen.getByRole("region", { name: "Notificações" });

function deferred<T>() {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

describe("comments and likes on an activity", () => {
  beforeEach(() => {
    signIn();
  });

  it("are not there when the activity has them off", async () => {
    const activity = buildActivity();
    const api = stubActivity({}, activity);
    renderApp({ path: "/homepage/atividades/12" });
    await screen.findByRole("heading", { name: activity.name, level: 1 });

    expect(screen.queryByRole("region", { name: "Comentários e curtidas" })).not.toBeInTheDocument();
    expect(api.callsTo(LIKES)).toHaveLength(0);
  });

  it("like at once, then the call; unlike the same way", async () => {
    const liked = deferred<Response>();
    const api = stubActivity({
      [LIKE_ACTIVITY_CALL]: () => liked.promise,
      [UNLIKE_ACTIVITY_CALL]: () => jsonResponse({ likes: 4, userLiked: false }),
    });
    const section = await renderActivity();

    fireEvent.click(await within(section).findByRole("button", { name: "Curtir: 4 curtidas" }));

    expect(await within(section).findByRole("button", { name: "Curtir: 5 curtidas" })).toHaveAttribute("aria-pressed", "true");
    await waitFor(() => expect(api.bodiesOf(LIKE_ACTIVITY_CALL)).toEqual([{ action: 12 }]));
    liked.resolve(jsonResponse({ likes: 5, userLiked: true }));
    await waitFor(() => expect(within(section).getByRole("button", { name: /^Curtir/ })).toHaveAttribute("aria-disabled", "false"));

    fireEvent.click(within(section).getByRole("button", { name: "Curtir: 5 curtidas" }));

    expect(await within(section).findByRole("button", { name: "Curtir: 4 curtidas" })).toHaveAttribute("aria-pressed", "false");
    expect(api.bodiesOf(UNLIKE_ACTIVITY_CALL)).toEqual([{ action: 12 }]);
  });

  it("puts the like back with the server's message when it fails", async () => {
    stubActivity({ [LIKE_ACTIVITY_CALL]: () => jsonResponse({ messages: ["Erro! Esta atividade não está disponível."] }, 404) });
    const section = await renderActivity();

    fireEvent.click(await within(section).findByRole("button", { name: "Curtir: 4 curtidas" }));

    expect(await within(notifications()).findByText("Erro! Esta atividade não está disponível.")).toBeInTheDocument();
    expect(within(section).getByRole("button", { name: "Curtir: 4 curtidas" })).toHaveAttribute("aria-pressed", "false");
  });

  it("expand and collapse the comments, read again each time they open", async () => {
    const api = stubActivity({ [COMMENTS]: commentsAnswer([buildComment()]) });
    const section = await renderActivity();
    const toggle = within(section).getByRole("button", { name: "Comentários" });
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    expect(api.callsTo(COMMENTS)).toHaveLength(0);

    fireEvent.click(toggle);
    expect(toggle).toHaveAttribute("aria-expanded", "true");
    expect(await screen.findByText("Que legal!")).toBeInTheDocument();

    fireEvent.click(toggle);
    await waitFor(() => expect(screen.queryByText("Que legal!")).not.toBeInTheDocument());
    fireEvent.click(toggle);

    expect(await screen.findByText("Que legal!")).toBeInTheDocument();
    await waitFor(() => expect(api.callsTo(COMMENTS)).toHaveLength(2));
  });

  it("invite the first comment", async () => {
    stubActivity({ [COMMENTS]: commentsAnswer([]) });
    const panel = await openComments();

    expect(
      await within(panel).findByText("Ainda não há comentários aqui. Seja o primeiro e diga o que está pensando."),
    ).toBeInTheDocument();
  });

  it("send a comment on Enter only when it is not empty, with a 200-character counter", async () => {
    const api = stubActivity({
      [COMMENTS]: commentsAnswer([]),
      [ADD_ACTIVITY_COMMENT_CALL]: () => jsonResponse(buildComment({ id: 9, user: MARIA, userAuthor: true }), 201),
    });
    const panel = await openComments();
    await within(panel).findByText(/^Ainda não há comentários aqui/);
    const box = within(panel).getByRole("textbox", { name: "Escreva um comentário" });

    expect(box).toHaveAttribute("maxLength", "200");
    fireEvent.keyDown(box, { key: "Enter" });
    fireEvent.change(box, { target: { value: "  " } });
    fireEvent.keyDown(box, { key: "Enter" });
    expect(api.callsTo(ADD_ACTIVITY_COMMENT_CALL)).toHaveLength(0);

    fireEvent.change(box, { target: { value: "Adorei a história" } });
    expect(within(panel).getByText("17/200")).toBeInTheDocument();
    fireEvent.keyDown(box, { key: "a" });
    expect(api.callsTo(ADD_ACTIVITY_COMMENT_CALL)).toHaveLength(0);
    fireEvent.keyDown(box, { key: "Enter" });

    await waitFor(() => expect(box).toHaveValue(""));
    expect(api.bodiesOf(ADD_ACTIVITY_COMMENT_CALL)).toEqual([{ description: "Adorei a história", action: 12 }]);
    await waitFor(() => expect(api.callsTo(COMMENTS)).toHaveLength(2));
    expect(within(panel).getByText("0/200")).toBeInTheDocument();
  });

  it("show replies under their comment, and answer one", async () => {
    const root = buildComment({
      replies: [buildComment({ id: 6, parentId: 5, user: MARIA, userAuthor: true, description: "Também achei!" })],
    });
    const lonely = buildComment({ id: 7, description: "Alguém foi?" });
    const api = stubActivity({
      [COMMENTS]: commentsAnswer([root, lonely]),
      [ADD_REPLY_CALL]: () => jsonResponse(buildComment({ id: 8, parentId: 7, user: MARIA, userAuthor: true }), 201),
    });
    const panel = await openComments();

    const [first] = await within(panel).findAllByRole("article", { name: "Comentário de João Souza" });
    if (!first) throw new Error("the first comment is an article");
    fireEvent.click(within(first).getByRole("button", { name: "Respostas (1)" }));
    expect(await within(first).findByText("Também achei!")).toBeInTheDocument();

    const second = within(panel).getByText("Alguém foi?").closest("article");
    if (!second) throw new Error("the second comment is an article");
    fireEvent.click(within(second).getByRole("button", { name: "Responder" }));
    expect(within(second).getByText("Ainda não há respostas aqui.")).toBeInTheDocument();
    const reply = within(second).getByRole("textbox", { name: "Escreva uma resposta" });
    fireEvent.change(reply, { target: { value: "Eu fui!" } });
    fireEvent.keyDown(reply, { key: "Enter" });

    await waitFor(() => expect(api.bodiesOf(ADD_REPLY_CALL)).toEqual([{ description: "Eu fui!", action: 12, comment_id: 7 }]));
    await waitFor(() => expect(api.callsTo(COMMENTS)).toHaveLength(2));
  });

  it("delete only one's own comments, after the confirmation", async () => {
    let reads = 0;
    const api = stubActivity({
      [COMMENTS]: () => {
        reads += 1;
        const others = buildComment();
        const own = buildComment({ id: 6, user: MARIA, userAuthor: true, description: "Meu comentário" });
        return jsonResponse(reads === 1 ? [others, own] : [others]);
      },
      [deleteCommentCall(6)]: () => new Response(null, { status: 204 }),
    });
    const panel = await openComments();
    await within(panel).findByText("Meu comentário");

    expect(within(panel).getAllByRole("button", { name: "Deletar comentário" })).toHaveLength(1);
    fireEvent.click(within(panel).getByRole("button", { name: "Deletar comentário" }));
    const dialog = screen.getByRole("dialog", { name: "Você vai deletar esse comentário" });
    expect(dialog).toHaveTextContent("Tem certeza?");
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancelar" }));
    expect(api.callsTo(deleteCommentCall(6))).toHaveLength(0);

    fireEvent.click(within(panel).getByRole("button", { name: "Deletar comentário" }));
    fireEvent.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Sim" }));

    await waitFor(() => expect(within(panel).queryByText("Meu comentário")).not.toBeInTheDocument());
    expect(api.callsTo(deleteCommentCall(6))).toHaveLength(1);
  });

  it("show 'Erro' with the first message when a comment is refused", async () => {
    stubActivity({
      [COMMENTS]: commentsAnswer([]),
      [ADD_ACTIVITY_COMMENT_CALL]: () =>
        jsonResponse({ messages: ["O comentário deve ter no máximo 200 caracteres.", "outro"] }, 422),
    });
    const panel = await openComments();
    await within(panel).findByText(/^Ainda não há comentários aqui/);
    const box = within(panel).getByRole("textbox", { name: "Escreva um comentário" });

    fireEvent.change(box, { target: { value: "Oi" } });
    fireEvent.keyDown(box, { key: "Enter" });

    expect(await within(notifications()).findByText("O comentário deve ter no máximo 200 caracteres.")).toBeInTheDocument();
    expect(within(notifications()).getByText("Erro")).toBeInTheDocument();
    expect(box).toHaveValue("Oi");
  });
});

describe("a visitor on a public activity", () => {
  it("is asked to log in or sign up instead of the comments", async () => {
    const api = stubApi({ [publicActivityCall(12)]: () => jsonResponse(ACTIVITY) });
    renderApp({ path: "/atividade/12" });

    const section = await screen.findByRole("region", { name: "Comentários e curtidas" });
    expect(within(section).getByRole("note")).toHaveTextContent("Para comentar e curtir, entre na sua conta ou cadastre-se.");
    expect(within(section).getByRole("link", { name: "entre na sua conta" })).toHaveAttribute("href", "/login");
    expect(within(section).getByRole("link", { name: "cadastre-se" })).toHaveAttribute("href", "/cadastrar");
    expect(within(section).queryByRole("button")).not.toBeInTheDocument();
    expect(api.callsTo(LIKES)).toHaveLength(0);
  });
});

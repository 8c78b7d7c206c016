import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import {
  ADD_POST_COMMENT_CALL,
  buildComment,
  buildPost,
  deleteCommentCall,
  FEED_PATH,
  feedCall,
  feedResponse,
  MARIA,
  postCommentsCall,
  reportCommentCall,
} from "@/features/feed/testing/feed-fixtures";
import type { FeedComment } from "@/features/feed/api/types";
import { buildWalletBalance, jsonResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { stubApi, type ApiHandler } from "@/testing/stub-api";

const COMMENTS = postCommentsCall(41);

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  signIn();
});

function stubComments(comments: FeedComment[] | ApiHandler, handlers: Record<string, ApiHandler> = {}) {
  return stubApi({
    "GET /api/users-points/1": () => jsonResponse(buildWalletBalance()),
    [feedCall()]: () => feedResponse([buildPost()]),
    [COMMENTS]: typeof comments === "function" ? comments : () => jsonResponse(comments),
    ...handlers,
  });
}

async function openComments(count = 3) {
  renderApp({ path: FEED_PATH });
  const toggle = await screen.findByRole("button", { name: `Comentários (${count})` });
  fireEvent.click(toggle);
  return toggle;
}

const panel = () => screen.getByRole("region", { name: "Comentários do post de João Souza" });
const commentBox = () => screen.getByRole("textbox", { name: "Escreva um comentário" });
const notifications = () => screen.getByRole("region", { name: "Notificações" });

describe("a post's comments", () => {
  it("opens from the post and is read again each time it opens", async () => {
    const api = stubComments([buildComment(), buildComment({ id: 6, user: MARIA, userAuthor: true, description: "Obrigada!" })]);
    const toggle = await openComments();

    expect(toggle).toHaveAttribute("aria-expanded", "true");
    const list = await within(panel()).findByRole("list", { name: "Comentários do post" });
    expect(within(list).getAllByRole("article").map((comment) => comment.getAttribute("aria-label"))).toEqual([
      "Comentário de João Souza",
      "Comentário de Maria Silva",
    ]);
    expect(within(list).getByText("Que legal!")).toBeInTheDocument();

    fireEvent.click(toggle);
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    await waitFor(() => expect(screen.queryByRole("region", { name: /^Comentários do post/ })).not.toBeInTheDocument());

    fireEvent.click(toggle);
    await within(panel()).findByText("Que legal!");
    await waitFor(() => expect(api.callsTo(COMMENTS)).toHaveLength(2));
  });

  it("invites the first comment when there is none", async () => {
    stubComments([]);
    await openComments();

    expect(
      await within(panel()).findByText("Ainda não há comentários aqui. Seja o primeiro e diga o que está pensando."),
    ).toBeInTheDocument();
  });

  it("sends a comment on Enter only when it is not empty, with a 200-character counter", async () => {
    const api = stubComments([], {
      [ADD_POST_COMMENT_CALL]: () => jsonResponse(buildComment({ id: 7, user: MARIA, userAuthor: true }), 201),
    });
    const toggle = await openComments();
    await within(panel()).findByText(/^Ainda não há comentários aqui/);

    expect(commentBox()).toHaveAttribute("maxLength", "200");
    expect(within(panel()).getByText("0/200")).toBeInTheDocument();
    fireEvent.change(commentBox(), { target: { value: "   " } });
    fireEvent.keyDown(commentBox(), { key: "Enter" });
    expect(within(panel()).getByRole("button", { name: "Enviar" })).toBeDisabled();
    expect(api.callsTo(ADD_POST_COMMENT_CALL)).toHaveLength(0);

    fireEvent.change(commentBox(), { target: { value: "Parabéns!" } });
    expect(within(panel()).getByText("9/200")).toBeInTheDocument();
    fireEvent.keyDown(commentBox(), { key: "Enter" });

    await waitFor(() => expect(commentBox()).toHaveValue(""));
    expect(api.bodiesOf(ADD_POST_COMMENT_CALL)).toEqual([{ description: "Parabéns!", post: 41 }]);
    await waitFor(() => expect(api.callsTo(COMMENTS)).toHaveLength(2));
    expect(toggle).toHaveTextContent("Comentários (4)");
  });

  it("shows the first message of a refused comment and keeps its text", async () => {
    stubComments([], {
      [ADD_POST_COMMENT_CALL]: () => jsonResponse({ messages: ["O comentário não pode ficar vazio."] }, 422),
    });
    await openComments();
    await within(panel()).findByText(/^Ainda não há comentários aqui/);

    fireEvent.change(commentBox(), { target: { value: "Oi" } });
    fireEvent.click(within(panel()).getByRole("button", { name: "Enviar" }));

    expect(await within(notifications()).findByText("O comentário não pode ficar vazio.")).toBeInTheDocument();
    expect(within(notifications()).getByText("Erro")).toBeInTheDocument();
    expect(commentBox()).toHaveValue("Oi");
  });

  it("says 'Erro interno no servidor' when the comments cannot be read", async () => {
    stubComments(() => jsonResponse({ unexpected: true }, 404));
    await openComments();

    expect(await within(notifications()).findByText("Erro interno no servidor")).toBeInTheDocument();
  });

  it("deletes one's own comment after the confirmation, and reads the list again", async () => {
    let reads = 0;
    const api = stubComments(
      () => {
        reads += 1;
        return jsonResponse(
          reads === 1 ? [buildComment(), buildComment({ id: 6, user: MARIA, userAuthor: true, description: "Obrigada!" })] : [buildComment()],
        );
      },
      { [deleteCommentCall(6)]: () => new Response(null, { status: 204 }) },
    );
    const toggle = await openComments();
    const list = await within(panel()).findByRole("list", { name: "Comentários do post" });

    const others = within(list).getByRole("article", { name: "Comentário de João Souza" });
    expect(within(others).queryByRole("button", { name: "Deletar comentário" })).not.toBeInTheDocument();
    const own = within(list).getByRole("article", { name: "Comentário de Maria Silva" });
    fireEvent.click(within(own).getByRole("button", { name: "Deletar comentário" }));

    const dialog = screen.getByRole("dialog", { name: "Você vai deletar esse comentário" });
    expect(dialog).toHaveTextContent("Tem certeza?");
    fireEvent.click(within(dialog).getByRole("button", { name: "Sim" }));

    await waitFor(() => expect(screen.queryByText("Obrigada!")).not.toBeInTheDocument());
    expect(api.callsTo(deleteCommentCall(6))).toHaveLength(1);
    expect(toggle).toHaveTextContent("Comentários (2)");
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  it("reports another's comment", async () => {
    const api = stubComments([buildComment()], { [reportCommentCall(5)]: () => jsonResponse({ reported: true }, 201) });
    await openComments();
    const comment = await within(panel()).findByRole("article", { name: "Comentário de João Souza" });

    fireEvent.click(within(comment).getByRole("button", { name: "Denunciar" }));
    const dialog = screen.getByRole("dialog", { name: "Denunciar este comentário" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Denunciar" }));

    expect(await within(notifications()).findByText("Denúncia enviada. Nossa equipe vai analisar.")).toBeInTheDocument();
    expect(api.bodiesOf(reportCommentCall(5))).toEqual([{}]);
  });
});

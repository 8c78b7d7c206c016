import { screen } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { stubFetchAnswers } from "@/features/jobs/testing/job-fixtures";
import { jsonResponse } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";

const SUBSCRIBED = "Você se inscreveu novamente com sucesso em nossa lista.";
const SUBSCRIBE_FAILED = "Houve um erro ao inscrevê-lo(a) em nossa página. Por favor, recarregue a página.";
const UNSUBSCRIBED = "Você se desinscreveu com sucesso da nossa lista de e-mails.";
const UNSUBSCRIBE_FAILED = "Houve um erro ao desinscrevê-lo(a) em nossa lista, por favor, recarregue a página.";

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
});

function requestOf(fetchMock: ReturnType<typeof stubFetchAnswers>) {
  const [url, init] = fetchMock.mock.calls[0] ?? [];
  return { url, method: init?.method, body: JSON.parse(init?.body as string) as unknown };
}

describe("/email/inscricao/{userId}/{userHash}", () => {
  it("subscribes again: an empty answer is a success", async () => {
    const fetchMock = stubFetchAnswers(() => new Response(null, { status: 204 }));
    renderApp({ path: "/email/inscricao/12/a1b2c3" });

    expect(await screen.findByText(SUBSCRIBED)).toBeInTheDocument();
    expect(requestOf(fetchMock)).toEqual({ url: "/api/e-mail-subscribe", method: "PUT", body: { id: 12, hash: "a1b2c3" } });
    expect(screen.queryByRole("link", { name: "Inscrever-me novamente" })).not.toBeInTheDocument();
  });

  it("shows the error text when the link is refused", async () => {
    stubFetchAnswers(() => jsonResponse({ messages: ["Link inválido."] }, 422));
    renderApp({ path: "/email/inscricao/12/errado" });

    expect(await screen.findByRole("alert")).toHaveTextContent(SUBSCRIBE_FAILED);
  });

  it("shows the error text for an answer that is not empty", async () => {
    stubFetchAnswers(() => jsonResponse([0]));
    renderApp({ path: "/email/inscricao/12/a1b2c3" });

    expect(await screen.findByRole("alert")).toHaveTextContent(SUBSCRIBE_FAILED);
  });
});

describe("/email/desinscricao/{userId}/{userHash}", () => {
  it("unsubscribes, with a link to subscribe again", async () => {
    const fetchMock = stubFetchAnswers(() => jsonResponse([1]));
    renderApp({ path: "/email/desinscricao/12/a1b2c3" });

    expect(await screen.findByText(UNSUBSCRIBED)).toHaveAttribute("role", "status");
    expect(requestOf(fetchMock)).toEqual({
      url: "/api/e-mail-unsubscribe",
      method: "PUT",
      body: { id: 12, hash: "a1b2c3" },
    });
    expect(screen.getByRole("link", { name: "Inscrever-me novamente" })).toHaveAttribute(
      "href",
      "/email/inscricao/12/a1b2c3",
    );
  });

  it("shows the error text when the answer's first element is 0", async () => {
    stubFetchAnswers(() => jsonResponse([0]));
    renderApp({ path: "/email/desinscricao/12/errado" });

    expect(await screen.findByRole("alert")).toHaveTextContent(UNSUBSCRIBE_FAILED);
    expect(screen.queryByRole("link", { name: "Inscrever-me novamente" })).not.toBeInTheDocument();
  });

  it("shows the error text without asking the API when the user id is not a number", () => {
    const fetchMock = vi.fn();
    vi.stubGlobal("fetch", fetchMock);
    renderApp({ path: "/email/desinscricao/abc/a1b2c3" });

    expect(screen.getByRole("alert")).toHaveTextContent(UNSUBSCRIBE_FAILED);
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe("/email/{other}/...", () => {
  it("is not found", async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal("fetch", fetchMock);
    renderApp({ path: "/email/outra-coisa/12/a1b2c3" });

    expect(await screen.findByRole("heading", { name: "Página não encontrada" })).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

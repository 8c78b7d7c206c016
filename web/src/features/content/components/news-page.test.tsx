import { fireEvent, screen, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { buildNews, buildNewsCard, NEWS_PAGE_CALL, WALLET_CALL } from "@/features/content/testing/content-fixtures";
import { buildWalletBalance, jsonResponse, pageResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { stubApi, type ApiHandler } from "@/testing/stub-api";

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  signIn();
});

function stub(handlers: Record<string, ApiHandler>) {
  return stubApi({ [WALLET_CALL]: () => jsonResponse(buildWalletBalance()), ...handlers });
}

const CARD_SRCSET = "/api/media/news/7/assembleia.480w.jpg 480w, /api/media/news/7/assembleia.png 640w";

const notifications = () => screen.getByRole("region", { name: "Notificações" });

describe("news list", () => {
  it("shows placeholders while the news load", async () => {
    stub({ [NEWS_PAGE_CALL()]: () => new Promise<Response>(() => undefined) });
    renderApp({ path: "/homepage/noticias" });
    expect(await screen.findByRole("heading", { level: 1, name: "Notícias" })).toBeInTheDocument();
    expect(screen.getByRole("status", { name: "Carregando notícias" })).toBeInTheDocument();
  });

  it("shows each item as a card with 'Ver Mais' to its page", async () => {
    stub({
      [NEWS_PAGE_CALL()]: () =>
        pageResponse([buildNewsCard({ id: 2, title: "Campanha do agasalho", subtitle: "Doe na sede", image: null }), buildNewsCard({ image_srcset: CARD_SRCSET })]),
      "GET /api/news/1": () => jsonResponse(buildNews()),
    });
    const { page } = renderApp({ path: "/homepage/noticias" });

    const list = await screen.findByRole("list", { name: "Notícias" });
    const [first, second] = within(list).getAllByRole("article");
    expect(within(first!).getByRole("heading", { name: "Campanha do agasalho" })).toBeInTheDocument();
    expect(within(first!).getByText("Doe na sede")).toBeInTheDocument();
    expect(within(second!).getByText("05/12/2026")).toBeInTheDocument();

    // Cards of a grid: each picture's widths, lazily.
    expect(first!.querySelector("img")).toBeNull();
    const picture = second!.querySelector("img");
    expect(picture).toHaveAttribute("srcset", CARD_SRCSET);
    expect(picture).toHaveAttribute("sizes", "(min-width: 1440px) 25vw, (min-width: 1024px) 33vw, (min-width: 600px) 50vw, 100vw");
    expect(picture).toHaveAttribute("loading", "lazy");
    expect(picture).toHaveAttribute("decoding", "async");

    fireEvent.click(within(second!).getByRole("link", { name: "Ver Mais: Assembleia geral" }));
    expect(await screen.findByRole("heading", { level: 1, name: "Assembleia geral" })).toBeInTheDocument();
    expect(page.location.pathname).toBe("/homepage/noticias/1");
  });

  it("loads the next page with 'Carregar mais notícias'", async () => {
    const api = stub({
      [NEWS_PAGE_CALL()]: () => pageResponse([buildNewsCard({ id: 3, title: "Primeira" })], 2),
      [NEWS_PAGE_CALL(1)]: () => pageResponse([buildNewsCard({ id: 4, title: "Segunda" })], 2),
    });
    renderApp({ path: "/homepage/noticias" });
    fireEvent.click(await screen.findByRole("button", { name: "Carregar mais notícias" }));

    expect(await screen.findByRole("heading", { name: "Segunda" })).toBeInTheDocument();
    expect(api.callsTo(NEWS_PAGE_CALL(1))).toHaveLength(1);
    expect(screen.queryByRole("button", { name: "Carregar mais notícias" })).not.toBeInTheDocument();
  });

  it("says 'Não há notícias' when there is none", async () => {
    stub({ [NEWS_PAGE_CALL()]: () => pageResponse([]) });
    renderApp({ path: "/homepage/noticias" });
    expect(await screen.findByText("Não há notícias")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Tentar novamente" })).not.toBeInTheDocument();
  });

  it("stops loading quietly when the news cannot be read, and lets the member try again", async () => {
    let fail = true;
    stub({
      [NEWS_PAGE_CALL()]: () => (fail ? jsonResponse({ messages: ["Você não possui autorização para acessar esta página."] }, 403) : pageResponse([buildNewsCard()])),
    });
    renderApp({ path: "/homepage/noticias" });

    expect(await screen.findByText("Não há notícias")).toBeInTheDocument();
    expect(within(notifications()).queryByText("Erro")).not.toBeInTheDocument();
    fail = false;
    fireEvent.click(screen.getByRole("button", { name: "Tentar novamente" }));
    expect(await screen.findByRole("heading", { name: "Assembleia geral" })).toBeInTheDocument();
  });
});

describe("news item", () => {
  it("shows the title, subtitle, picture and the body without anything unsafe", async () => {
    stub({
      "GET /api/news/1": () =>
        jsonResponse(
          buildNews({
            body: '<p>Na sede</p><img src="x" onerror="alert(1)"><script>alert(1)</script><a href="javascript:alert(1)">link</a>',
          }),
        ),
    });
    const { container } = renderApp({ path: "/homepage/noticias/1" });

    expect(await screen.findByRole("heading", { level: 1, name: "Assembleia geral" })).toBeInTheDocument();
    expect(screen.getByText("Participe e vote")).toBeInTheDocument();
    expect(container.querySelector('img[src="/api/media/news/7/assembleia.png"]')).toBeInTheDocument();
    expect(screen.getByText("Na sede")).toBeInTheDocument();
    const body = container.querySelector(".content-detail__body")!;
    expect(body.querySelector("img, script")).toBeNull();
    expect(body.querySelector("a")?.getAttribute("href")).toBeNull();
  });

  it("offers the picture's widths for the article's column", async () => {
    const srcset = "/api/media/news/7/a.480w.jpg 480w, /api/media/news/7/a.png 640w";
    stub({ "GET /api/news/1": () => jsonResponse(buildNews({ image: "/api/media/news/7/a.png", image_srcset: srcset })) });
    const { container } = renderApp({ path: "/homepage/noticias/1" });

    await screen.findByRole("heading", { level: 1, name: "Assembleia geral" });
    const picture = container.querySelector(".content-detail__image")!;
    expect(picture).toHaveAttribute("srcset", srcset);
    expect(picture).toHaveAttribute("sizes", "(min-width: 760px) 760px, 100vw");
    expect(picture).toHaveAttribute("decoding", "async");
  });

  it("says the item is not there when the server says so", async () => {
    stub({ "GET /api/news/9": () => jsonResponse({ error: "Notícia não encontrada" }, 404) });
    renderApp({ path: "/homepage/noticias/9" });
    expect(await screen.findByRole("heading", { level: 1, name: "Notícia não encontrada" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Voltar para notícias" })).toHaveAttribute("href", "/homepage/noticias");
  });
});

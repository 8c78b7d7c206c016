import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import {
  ACCOUNTING_STATION,
  accountingNewsCall,
  buildNewsItem,
  LEGAL_STATION,
  legalNewsCall,
  newsPage,
} from "@/features/services/testing/services-fixtures";
import { buildWalletBalance, jsonResponse, signIn } from "@/testing/fixtures";
import { stubIntersectionObserver } from "@/testing/intersection-observer";
import { renderApp } from "@/testing/render-app";
import { stubApi, type ApiHandler } from "@/testing/stub-api";

const LEGAL_NEWS = "/homepage/consultoria-juridica/noticias";

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  signIn();
});

function stubServices(handlers: Record<string, ApiHandler>) {
  return stubApi({ "GET /api/users-points/1": () => jsonResponse(buildWalletBalance()), ...handlers });
}

describe("a desk's news", () => {
  it("loads the next page as the end comes into sight, and ends with 'Isso é tudo por enquanto!'", async () => {
    const observer = stubIntersectionObserver();
    // The options each observer is made with: half of the end in sight (spec 002 section 9).
    const options: (IntersectionObserverInit | undefined)[] = [];
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
    const api = stubServices({
      [legalNewsCall(1)]: () => jsonResponse(newsPage(9, 1)),
      [legalNewsCall(2)]: () => jsonResponse(newsPage(2, 10)),
    });
    renderApp({ path: LEGAL_NEWS, station: LEGAL_STATION });
    expect(await screen.findByRole("heading", { level: 1, name: "Notícias" })).toBeInTheDocument();
    const list = await screen.findByRole("list", { name: "Notícias" });
    expect(within(list).getAllByRole("article")).toHaveLength(9);
    expect(screen.queryByText("Isso é tudo por enquanto!")).not.toBeInTheDocument();
    expect(observer.observedCount()).toBe(1);
    expect(options.at(-1)).toEqual({ threshold: 0.5 });

    await observer.scrollIntoView();
    expect(await screen.findByText("Isso é tudo por enquanto!")).toBeInTheDocument();
    expect(within(screen.getByRole("list", { name: "Notícias" })).getAllByRole("article")).toHaveLength(11);
    expect(api.callsTo(legalNewsCall(2))).toHaveLength(1);
    expect(observer.observedCount()).toBe(0);
    expect(screen.queryByRole("button", { name: "Carregar mais notícias" })).not.toBeInTheDocument();
  });

  it("asks with the accounting tag, and ends after a full last page with an empty one", async () => {
    stubIntersectionObserver();
    const api = stubServices({
      [accountingNewsCall(1)]: () => jsonResponse(newsPage(9, 1)),
      [accountingNewsCall(2)]: () => jsonResponse([]),
    });
    renderApp({ path: "/homepage/consultoria-contabil/noticias", station: ACCOUNTING_STATION });
    await screen.findByRole("list", { name: "Notícias" });
    // The button asks too, for the keyboard.
    fireEvent.click(screen.getByRole("button", { name: "Carregar mais notícias" }));
    expect(await screen.findByText("Isso é tudo por enquanto!")).toBeInTheDocument();
    expect(api.callsTo(accountingNewsCall(2))).toHaveLength(1);
  });

  it("only stops loading when a page fails", async () => {
    const observer = stubIntersectionObserver();
    const api = stubServices({
      [legalNewsCall(1)]: () => jsonResponse(newsPage(9, 1)),
      [legalNewsCall(2)]: () => jsonResponse({ messages: ["page: Página inválida"] }, 400),
    });
    renderApp({ path: LEGAL_NEWS, station: LEGAL_STATION });
    await screen.findByRole("list", { name: "Notícias" });
    await observer.scrollIntoView();
    await waitFor(() => expect(api.callsTo(legalNewsCall(2))).toHaveLength(1));
    await waitFor(() => expect(screen.queryByRole("button", { name: "Carregar mais notícias" })).not.toBeInTheDocument());
    expect(screen.queryByText("Isso é tudo por enquanto!")).not.toBeInTheDocument();
    expect(screen.queryByRole("status", { name: /Carregando/ })).not.toBeInTheDocument();
    expect(screen.queryByText("Carregando…")).not.toBeInTheDocument();
    expect(screen.queryByText("page: Página inválida")).not.toBeInTheDocument();
    expect(within(screen.getByRole("list", { name: "Notícias" })).getAllByRole("article")).toHaveLength(9);
  });

  it("says there is nothing to show when the first page is empty or fails, without a toast", async () => {
    stubIntersectionObserver();
    let answer = () => jsonResponse([]);
    stubServices({ [legalNewsCall(1)]: () => answer() });
    const first = renderApp({ path: LEGAL_NEWS, station: LEGAL_STATION });
    expect(await screen.findByText("Não há dados para visualização")).toBeInTheDocument();
    expect(screen.queryByText("Isso é tudo por enquanto!")).not.toBeInTheDocument();
    first.unmount();

    answer = () => jsonResponse({ messages: ["Serviço não disponível."] }, 404);
    renderApp({ path: LEGAL_NEWS, station: LEGAL_STATION });
    expect(await screen.findByText("Não há dados para visualização")).toBeInTheDocument();
    expect(screen.queryByText("Serviço não disponível.")).not.toBeInTheDocument();
  });

  it("opens an item's page with the item handed over, and leads back", async () => {
    stubIntersectionObserver();
    stubServices({
      [legalNewsCall(1)]: () => jsonResponse([buildNewsItem({ title: { rendered: "Férias &amp; 13º" } })]),
    });
    const { page } = renderApp({ path: LEGAL_NEWS, station: LEGAL_STATION });
    const card = await screen.findByRole("article", { name: "Férias & 13º" });
    expect(within(card).getByText("Reajuste de 6%")).toBeInTheDocument();
    expect(within(card).getByText("20/11/2026")).toBeInTheDocument();
    fireEvent.click(within(card).getByRole("link", { name: "Férias & 13º" }));

    expect(await screen.findByRole("heading", { level: 1, name: "Férias & 13º" })).toBeInTheDocument();
    expect(page.location.pathname).toBe(`${LEGAL_NEWS}/detalhe`);
    expect(screen.getByText("acordo").tagName).toBe("STRONG");
    fireEvent.click(screen.getByRole("link", { name: "Voltar para as notícias" }));
    expect(page.location.pathname).toBe(LEGAL_NEWS);
  });

  it("says so when the page is opened without an item", async () => {
    stubServices({});
    renderApp({ path: `${LEGAL_NEWS}/detalhe`, station: LEGAL_STATION });
    expect(await screen.findByRole("heading", { level: 1, name: "Notícia não encontrada." })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Voltar para as notícias" })).toHaveAttribute("href", LEGAL_NEWS);
  });
});

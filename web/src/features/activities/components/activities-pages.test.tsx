import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import {
  activitiesCall,
  buildActivityCard,
  buildActivityCards,
  buildCategory,
  categoryCall,
  homeHandlers,
  searchCall,
} from "@/features/activities/testing/activity-fixtures";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { buildWalletBalance, jsonResponse, pageResponse, signIn } from "@/testing/fixtures";
import { stubIntersectionObserver } from "@/testing/intersection-observer";
import { renderApp } from "@/testing/render-app";
import { stubApi, type ApiHandler } from "@/testing/stub-api";
import type { ActivityCard } from "@/types/api";

const BALANCE = "GET /api/users-points/1";

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  signIn();
});

function stub(handlers: Record<string, ApiHandler>) {
  return stubApi({ [BALANCE]: () => jsonResponse(buildWalletBalance()), ...homeHandlers(), ...handlers });
}

/** 30 activities answered in pages of 24: "Atividade 1" to "Atividade 24", then 25 to 30. */
const THIRTY = buildActivityCards(30);
const firstPage = () => pageResponse(THIRTY.slice(0, 24), 30);
const secondPage = () => pageResponse(THIRTY.slice(24), 30);

const cardsIn = (label: string) => within(screen.getByRole("list", { name: label })).getAllByRole("article");

describe("search page", () => {
  it("titles the results with the number of all matches and the term", async () => {
    stub({ [searchCall("café")]: () => pageResponse(buildActivityCards(24), 30) });
    renderApp({ path: `/homepage/search/${encodeURIComponent("café")}` });

    expect(await screen.findByRole("heading", { name: '30 resultado(s) da busca "café"' })).toBeInTheDocument();
    expect(cardsIn("Resultados da busca")).toHaveLength(24);
  });

  it("appends the next page of results when asked", async () => {
    const api = stub({
      [searchCall("atividade")]: firstPage,
      [searchCall("atividade", 24)]: secondPage,
    });
    renderApp({ path: "/homepage/search/atividade" });
    await screen.findByRole("heading", { name: '30 resultado(s) da busca "atividade"' });

    fireEvent.click(screen.getByRole("button", { name: "Carregar mais atividades" }));

    await waitFor(() => expect(cardsIn("Resultados da busca")).toHaveLength(30));
    expect(api.callsTo(searchCall("atividade", 24))).toHaveLength(1);
    expect(screen.queryByRole("button", { name: "Carregar mais atividades" })).not.toBeInTheDocument();
  });

  it("says when nothing was found", async () => {
    stub({ [searchCall("nada")]: () => pageResponse([], 0) });
    renderApp({ path: "/homepage/search/nada" });

    expect(await screen.findByRole("heading", { name: '0 resultado(s) da busca "nada"' })).toBeInTheDocument();
    expect(screen.getByText("Não há atividades")).toBeInTheDocument();
  });

  it("is reached from the top bar's search, which does not submit an empty term", async () => {
    const api = stub({ [searchCall("quiz")]: () => pageResponse(buildActivityCards(1)) });
    const { page } = renderApp({ path: "/homepage" });
    await screen.findByRole("heading", { name: "Início" });
    const box = screen.getByRole("searchbox", { name: "Termo de busca" });

    fireEvent.change(box, { target: { value: "  " } });
    fireEvent.submit(screen.getByRole("search"));
    expect(page.location.pathname).toBe("/homepage");

    fireEvent.change(box, { target: { value: "quiz" } });
    fireEvent.click(screen.getByRole("button", { name: "Buscar" }));
    expect(await screen.findByRole("heading", { name: '1 resultado(s) da busca "quiz"' })).toBeInTheDocument();
    expect(page.location.pathname).toBe("/homepage/search/quiz");
    expect(api.callsTo(searchCall("quiz"))).toHaveLength(1);
  });
});

describe("activities page", () => {
  it("shows the first 24 and appends the next page as the end of the list comes into view", async () => {
    const observer = stubIntersectionObserver();
    let answerSecond: (response: Response) => void = () => undefined;
    const api = stub({
      [activitiesCall()]: firstPage,
      [activitiesCall(24)]: () => new Promise<Response>((resolve) => (answerSecond = resolve)),
    });
    renderApp({ path: "/homepage/atividades" });
    await waitFor(() => expect(cardsIn("Atividades")).toHaveLength(24));
    expect(api.callsTo(activitiesCall(24))).toHaveLength(0);

    await observer.scrollIntoView();
    expect(await screen.findByRole("status", { name: "Carregando mais atividades" })).toBeInTheDocument();
    // Coming into view again while the page loads asks for nothing more.
    await observer.scrollIntoView();
    answerSecond(secondPage());

    await waitFor(() => expect(cardsIn("Atividades")).toHaveLength(30));
    expect(within(cardsIn("Atividades")[29]!).getByText("Atividade 30")).toBeInTheDocument();
    expect(screen.queryByRole("status", { name: "Carregando mais atividades" })).not.toBeInTheDocument();
    expect(api.callsTo(activitiesCall(24))).toHaveLength(1);
    // The list is whole: nothing is watched any more.
    expect(observer.observedCount()).toBe(0);
  });

  it("lets a keyboard user load the next page with the button", async () => {
    stub({ [activitiesCall()]: firstPage, [activitiesCall(24)]: secondPage });
    renderApp({ path: "/homepage/atividades" });
    const more = await screen.findByRole("button", { name: "Carregar mais atividades" });

    fireEvent.click(more);

    await waitFor(() => expect(cardsIn("Atividades")).toHaveLength(30));
    // The focus goes where the new cards begin (the button is gone: the list is whole).
    await waitFor(() => expect(within(cardsIn("Atividades")[24]!).getByRole("link")).toHaveFocus());
  });

  it("offers to try again when the first page fails, and then shows it", async () => {
    let calls = 0;
    stub({
      [activitiesCall()]: () => {
        calls += 1;
        return calls === 1 ? jsonResponse({ messages: ["Erro"] }, 400) : firstPage();
      },
    });
    renderApp({ path: "/homepage/atividades" });

    expect(await screen.findByRole("alert")).toHaveTextContent("Não foi possível carregar as atividades.");
    expect(screen.queryByText("Não há atividades")).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Tentar novamente" }));

    await waitFor(() => expect(cardsIn("Atividades")).toHaveLength(24));
  });

  it("asks the server for the term once the typing pauses, as typed (it ignores case and accents)", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const cafe = buildActivityCard({ id: 1, name: "Café com o presidente" });
    const api = stub({
      [activitiesCall()]: () => pageResponse([cafe, buildActivityCard({ id: 2, name: "Quiz" })]),
      [searchCall("CAFE")]: () => pageResponse([cafe]),
    });
    renderApp({ path: "/homepage/atividades" });
    await screen.findByText("Quiz");
    const box = screen.getByRole("searchbox", { name: "Pesquisar atividade" });

    for (const typed of ["C", "CA", "CAF", "CAFE "]) {
      fireEvent.change(box, { target: { value: typed } });
      await act(() => vi.advanceTimersByTimeAsync(100));
    }
    expect(api.calls.filter((call) => call.url.includes("/actions-by-name/"))).toHaveLength(0);
    await act(() => vi.advanceTimersByTimeAsync(300));

    await waitFor(() => expect(screen.queryByText("Quiz")).not.toBeInTheDocument());
    expect(screen.getByText("Café com o presidente")).toBeInTheDocument();
    expect(api.calls.filter((call) => call.url.includes("/actions-by-name/")).map((call) => call.url)).toEqual([
      searchCall("CAFE").replace("GET ", ""),
    ]);
  });

  it("pages the search's results too", async () => {
    stub({
      [activitiesCall()]: () => pageResponse([]),
      [searchCall("atividade")]: firstPage,
      [searchCall("atividade", 24)]: secondPage,
    });
    renderApp({ path: "/homepage/atividades" });
    fireEvent.change(await screen.findByRole("searchbox", { name: "Pesquisar atividade" }), {
      target: { value: "atividade" },
    });
    await waitFor(() => expect(cardsIn("Atividades")).toHaveLength(24));

    fireEvent.click(screen.getByRole("button", { name: "Carregar mais atividades" }));

    await waitFor(() => expect(cardsIn("Atividades")).toHaveLength(30));
  });

  it("says 'Não há atividades' when the search finds nothing, and lists all again once it is cleared", async () => {
    stub({
      [activitiesCall()]: () => pageResponse(buildActivityCards(2)),
      [searchCall("xyz")]: () => pageResponse([], 0),
    });
    renderApp({ path: "/homepage/atividades" });
    await screen.findByText("Atividade 1");
    const box = screen.getByRole("searchbox", { name: "Pesquisar atividade" });

    fireEvent.change(box, { target: { value: "xyz" } });
    expect(await screen.findByText("Não há atividades")).toBeInTheDocument();

    fireEvent.change(box, { target: { value: "" } });
    expect(await screen.findByText("Atividade 2")).toBeInTheDocument();
  });

  it("says 'Não há atividades' when the station has none", async () => {
    stub({ [activitiesCall()]: () => pageResponse([], 0) });
    renderApp({ path: "/homepage/atividades" });

    expect(await screen.findByText("Não há atividades")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Carregar mais atividades" })).not.toBeInTheDocument();
  });
});

describe("category page", () => {
  const leisure = (actions: ActivityCard[]) => jsonResponse([buildCategory({ id: 2, name: "Lazer", actions, actions_count: 30 })]);

  it("has the category's name as heading and its first 24 activities, then the next page", async () => {
    const observer = stubIntersectionObserver();
    const api = stub({
      [categoryCall(2)]: () => leisure(THIRTY.slice(0, 24)),
      [categoryCall(2, 24)]: () => leisure(THIRTY.slice(24)),
    });
    renderApp({ path: "/homepage/categoria/2" });

    expect(await screen.findByRole("heading", { name: "Lazer" })).toBeInTheDocument();
    expect(cardsIn("Lazer")).toHaveLength(24);

    await observer.scrollIntoView();

    await waitFor(() => expect(cardsIn("Lazer")).toHaveLength(30));
    expect(api.callsTo(categoryCall(2, 24))).toHaveLength(1);
    expect(screen.queryByRole("button", { name: "Carregar mais atividades" })).not.toBeInTheDocument();
  });

  it("shows the not-found view for a category the station does not have", async () => {
    stub({ [categoryCall(99)]: () => jsonResponse([]) });
    renderApp({ path: "/homepage/categoria/99" });

    expect(await screen.findByRole("heading", { name: "Página não encontrada" })).toBeInTheDocument();
  });
});

import { fireEvent, screen } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import {
  ACTIVITIES_CALL,
  buildActivityCard,
  buildActivityCards,
  categoryCall,
  homeHandlers,
  searchCall,
} from "@/features/activities/testing/activity-fixtures";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { buildWalletBalance, jsonResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { stubApi, type ApiHandler } from "@/testing/stub-api";

const BALANCE = "GET /api/users-points/1";

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  signIn();
});

function stub(handlers: Record<string, ApiHandler>) {
  return stubApi({ [BALANCE]: () => jsonResponse(buildWalletBalance()), ...homeHandlers(), ...handlers });
}

describe("search", () => {
  it("titles the results with their count and the term", async () => {
    stub({ [searchCall("café")]: () => jsonResponse(buildActivityCards(2)) });
    renderApp({ path: `/homepage/search/${encodeURIComponent("café")}` });

    expect(await screen.findByRole("heading", { name: '2 resultado(s) da busca "café"' })).toBeInTheDocument();
    expect(screen.getAllByRole("article")).toHaveLength(2);
  });

  it("says when nothing was found", async () => {
    stub({ [searchCall("nada")]: () => jsonResponse([]) });
    renderApp({ path: "/homepage/search/nada" });

    expect(await screen.findByRole("heading", { name: '0 resultado(s) da busca "nada"' })).toBeInTheDocument();
    expect(screen.getByText("Não há atividades")).toBeInTheDocument();
  });

  it("is reached from the top bar's search, which does not submit an empty term", async () => {
    const api = stub({ [searchCall("quiz")]: () => jsonResponse(buildActivityCards(1)) });
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

describe("activities list", () => {
  it("filters by name ignoring case and accents", async () => {
    stub({
      [ACTIVITIES_CALL]: () =>
        jsonResponse([buildActivityCard({ id: 1, name: "Café com o presidente" }), buildActivityCard({ id: 2, name: "Quiz" })]),
    });
    renderApp({ path: "/homepage/atividades" });
    await screen.findByRole("list", { name: "Atividades" });

    fireEvent.change(screen.getByRole("searchbox", { name: "Pesquisar atividade" }), { target: { value: "CAFE" } });

    expect(await screen.findByText("Café com o presidente")).toBeInTheDocument();
    expect(screen.queryByText("Quiz")).not.toBeInTheDocument();
  });

  it("says 'Não há atividades' when there is none", async () => {
    stub({ [ACTIVITIES_CALL]: () => jsonResponse([]) });
    renderApp({ path: "/homepage/atividades" });

    expect(await screen.findByText("Não há atividades")).toBeInTheDocument();
  });
});

describe("category page", () => {
  it("has the category's name as heading and all its activities", async () => {
    stub({
      [categoryCall(2)]: () =>
        jsonResponse([
          { id: 2, name: "Lazer", icon: null, category_actions: buildActivityCards(6).map((action) => ({ action })) },
        ]),
    });
    renderApp({ path: "/homepage/categoria/2" });

    expect(await screen.findByRole("heading", { name: "Lazer" })).toBeInTheDocument();
    expect(screen.getAllByRole("article")).toHaveLength(6);
  });

  it("shows the not-found view for a category the station does not have", async () => {
    stub({ [categoryCall(99)]: () => jsonResponse([]) });
    renderApp({ path: "/homepage/categoria/99" });

    expect(await screen.findByRole("heading", { name: "Página não encontrada" })).toBeInTheDocument();
  });
});

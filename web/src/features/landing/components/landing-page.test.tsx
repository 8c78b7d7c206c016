import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import {
  buildActivityCard,
  buildActivityCards,
  PUBLIC_FEATURED_CALL,
} from "@/features/activities/testing/activity-fixtures";
import { expectCarouselAdvancesEvery5sAndWraps } from "@/features/activities/testing/carousel";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { EMPTY_LANDING, LANDING_CALL } from "@/features/landing/testing/landing-fixtures";
import { jsonResponse } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { stubApi } from "@/testing/stub-api";
import type { ActivityCard } from "@/types/api";

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
});

function renderLanding(featured: ActivityCard[]) {
  const api = stubApi({
    [LANDING_CALL]: () => jsonResponse(EMPTY_LANDING),
    [PUBLIC_FEATURED_CALL]: () => jsonResponse(featured),
  });
  const rendered = renderApp({ path: "/" });
  return { ...rendered, api };
}

const carousel = () => screen.findByRole("region", { name: "Destaques" });

describe("the default welcome's public activities carousel", () => {
  it("shows the public featured activities, advancing every 5 seconds and wrapping to the first", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderLanding(buildActivityCards(3));
    await carousel();

    await expectCarouselAdvancesEvery5sAndWraps(3);
  });

  it("leads a slide to the activity's public page", async () => {
    const { page } = renderLanding([buildActivityCard({ id: 12, name: "Café com o presidente" })]);
    await carousel();

    const slide = screen.getByRole("link", { name: /Café com o presidente/ });
    expect(slide).toHaveAttribute("href", "/atividade/12");
    fireEvent.click(slide);
    expect(page.location.pathname).toBe("/atividade/12");
  });

  it("opens a type 13's external link", async () => {
    renderLanding([
      buildActivityCard({ name: "Serviços públicos", type_id: 13, redirect_links: [{ url: "https://www.gov.br" }] }),
    ]);
    await carousel();

    const slide = screen.getByRole("link", { name: /Serviços públicos/ });
    expect(slide).toHaveAttribute("href", "https://www.gov.br");
    expect(slide).toHaveAttribute("target", "_blank");
  });

  it("has no gate for visitors, whose prerequisites are never done", async () => {
    renderLanding([
      buildActivityCard({
        id: 14,
        name: "Desafio final",
        prerequisites: {
          action_has_prerequisites: true,
          user_done_prerequisites: false,
          action_prerequisites: [{ id: 3, name: "Quiz básico", done: false }],
        },
      }),
    ]);
    await carousel();

    expect(screen.getByRole("link", { name: /Desafio final/ })).toHaveAttribute("href", "/atividade/14");
    expect(screen.getByRole("link", { name: /Desafio final/ }).closest("article")).not.toHaveClass(
      "activity-card--locked",
    );
  });

  it("is not there when the station features no public activity", async () => {
    const { api } = renderLanding([]);
    expect(await screen.findByRole("heading", { level: 1, name: "Clube Filia Demo" })).toBeInTheDocument();

    await waitFor(() => expect(api.callsTo(PUBLIC_FEATURED_CALL)).toHaveLength(1));
    // Let the answer render.
    await act(() => Promise.resolve());
    expect(screen.queryByRole("region", { name: "Destaques" })).not.toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Entrar" })).toBeInTheDocument();
  });
});

import { fireEvent, screen, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import {
  activitiesCall,
  buildActivityCard,
  homeHandlers,
} from "@/features/activities/testing/activity-fixtures";
import type { ActivityCard } from "@/types/api";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { buildStation, buildWalletBalance, jsonResponse, pageResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { stubApi } from "@/testing/stub-api";
import type { Station } from "@/types/api";

const BALANCE = "GET /api/users-points/1";
const LONG_NAME = "Participe da grande campanha de fim de ano e concorra a prêmios incríveis todos os dias";

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  signIn();
});

async function renderInList(activities: ActivityCard[], station?: Station) {
  stubApi({ [BALANCE]: () => jsonResponse(buildWalletBalance()), [activitiesCall()]: () => pageResponse(activities) });
  const rendered = renderApp({ path: "/homepage/atividades", station });
  await screen.findByRole("list", { name: "Atividades" });
  return rendered;
}

describe("activity card", () => {
  it("links to the activity's page and shows the cashback in the station's currency", async () => {
    await renderInList([buildActivityCard({ id: 12, points: 100, additional_cashback: 20, cashback: 120 })]);

    const card = screen.getByRole("link", { name: /Quiz da semana/ });
    expect(card).toHaveAttribute("href", "/homepage/atividades/12");
    expect(card).toHaveTextContent("120,00 Pontos");
  });

  it("applies the station's multiplier to the cashback", async () => {
    await renderInList(
      [buildActivityCard({ cashback: 120 })],
      buildStation({ currency_multiplier: 0.01, currency_name: "R$", currency_name_position: "before_currency" }),
    );

    expect(screen.getByRole("link", { name: /Quiz da semana/ })).toHaveTextContent("R$ 1,20");
  });

  it("cuts names at 70 characters in lists", async () => {
    await renderInList([buildActivityCard({ name: LONG_NAME })]);

    expect(screen.getByText(`${LONG_NAME.slice(0, 70).trimEnd()}...`)).toBeInTheDocument();
  });

  it("cuts names at 62 characters in the home's rows", async () => {
    stubApi({
      [BALANCE]: () => jsonResponse(buildWalletBalance()),
      ...homeHandlers({ nowPlaying: [{ id: 1, title: "Em alta", actions: [buildActivityCard({ name: LONG_NAME })] }] }),
    });
    renderApp({ path: "/homepage" });

    expect(await screen.findByText(`${LONG_NAME.slice(0, 62).trimEnd()}...`)).toBeInTheDocument();
  });

  it("keeps a short name whole", async () => {
    await renderInList([buildActivityCard({ name: "Quiz da semana" })]);

    expect(screen.getByText("Quiz da semana")).toBeInTheDocument();
  });

  it("opens a type 13's external link in a new tab", async () => {
    await renderInList([
      buildActivityCard({ name: "Visite o parceiro", type_id: 13, redirect_links: [{ url: "https://exemplo.com.br" }] }),
    ]);

    const link = screen.getByRole("link", { name: /Visite o parceiro/ });
    expect(link).toHaveAttribute("href", "https://exemplo.com.br");
    expect(link).toHaveAttribute("target", "_blank");
    expect(link.getAttribute("rel")).toContain("noopener");
  });

  it("dims a card with unmet prerequisites and lists those not done in 'Quase lá'", async () => {
    const { page } = await renderInList([
      buildActivityCard({
        name: "Quiz avançado",
        prerequisites: {
          action_has_prerequisites: true,
          user_done_prerequisites: false,
          action_prerequisites: [
            { id: 3, name: "Cadastro completo", done: true },
            { id: 4, name: "Quiz básico", done: false },
          ],
        },
      }),
    ]);

    expect(screen.queryByRole("link", { name: /Quiz avançado/ })).not.toBeInTheDocument();
    const card = screen.getByRole("button", { name: /Quiz avançado/ });
    expect(card.closest("article")).toHaveClass("activity-card--locked");

    fireEvent.click(card);
    const dialog = screen.getByRole("dialog", { name: "Quase lá" });
    expect(within(dialog).getAllByRole("listitem").map((item) => item.textContent)).toEqual(["Quiz básico"]);
    expect(page.location.pathname).toBe("/homepage/atividades");

    fireEvent.click(within(dialog).getByRole("button", { name: "Fechar" }));
    expect(screen.queryByRole("dialog", { name: "Quase lá" })).not.toBeInTheDocument();
  });

  it("keeps a type 13 behind its prerequisites", async () => {
    await renderInList([
      buildActivityCard({
        name: "Visite o parceiro",
        type_id: 13,
        redirect_links: [{ url: "https://exemplo.com.br" }],
        prerequisites: {
          action_has_prerequisites: true,
          user_done_prerequisites: false,
          action_prerequisites: [{ id: 4, name: "Quiz básico", done: false }],
        },
      }),
    ]);

    expect(screen.getByRole("button", { name: /Visite o parceiro/ })).toBeInTheDocument();
  });
});

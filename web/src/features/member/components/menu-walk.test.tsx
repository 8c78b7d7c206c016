import { cleanup, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { homeShortcuts } from "@/features/activities";
import { memberMenu } from "@/features/member/components/member-menu";
import { buildPlan } from "@/features/subscriptions/testing/subscription-fixtures";
import { buildStation, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { stubApi } from "@/testing/stub-api";

// Every link the member's menus can show leads to a screen of the app, never to the
// not-found page: walked for a station with every flag on (the demo station's own menus are
// walked in the browser, e2e/menu-walk.spec.ts, with the demo's second station that has every
// flag on). The home's shortcut tiles and the search page are walked with them. Calls are
// left unanswered: what matters here is which screen the path opens.

const EVERY_FLAG_ON = buildStation({
  feed_access: true,
  events_access: true,
  files_access: true,
  checkout_access: true,
  lucky_numbers_access: true,
  member_card_access: true,
  pre_registration_access: true,
  home_shortcuts_access: true,
  enterprise_plan_access: true,
  fuel_campaign_access: true,
  legal_access: true,
  accounting_access: true,
  health_access: true,
  political_access: true,
  my_account_access: true,
  no_cpf: false,
  plans: [buildPlan()],
});

// The legal and accounting desks' pages are built on another branch at the same time; their
// links join the walk when those pages land (drop this list then).
const links = (() => {
  const menu = memberMenu(EVERY_FLAG_ON);
  const tiles = homeShortcuts(EVERY_FLAG_ON);
  // An external chat is another site's page; the walk keeps to ours.
  const ours = [...menu.main, ...(menu.account ?? [])].filter((link) => !link.external);
  return [...new Set([...ours, ...tiles, { to: "/homepage/search" }].map((link) => link.to))];
})();

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  stubApi();
  signIn();
});
afterEach(cleanup);

describe("the menus of a station with every flag on", () => {
  it("show the links of every flag", () => {
    expect(links).toEqual(
      expect.arrayContaining([
        "/homepage/feed",
        "/homepage/calendario",
        "/homepage/downloads",
        "/homepage/perfil",
        "/homepage/numeros-da-sorte",
        "/homepage/carteirinha",
        "/homepage/planos",
        "/homepage/prestacao-de-contas",
        "/homepage/legisclub-gasolina",
        "/homepage/saude",
        "/homepage/politico-sindical",
      ]),
    );
  });

  it.each(links)("%s opens a screen", async (path) => {
    const { page } = renderApp({ path, station: EVERY_FLAG_ON });

    expect(await screen.findByRole("banner")).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(screen.queryByRole("heading", { name: "Página não encontrada" })).not.toBeInTheDocument();
    expect(page.location.pathname).toBe(path);
  });
});

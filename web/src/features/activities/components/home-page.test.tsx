import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { Journey } from "@/types/api";
import {
  buildActivityCard,
  buildActivityCards,
  buildCategory,
  HOME_CALLS,
  homeHandlers,
  type HomeData,
} from "@/features/activities/testing/activity-fixtures";
import { expectCarouselAdvancesEvery5sAndWraps } from "@/features/activities/testing/carousel";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import {
  HOME_SHORTCUTS,
  LUCKY_CARD_LINK_TEXT,
  SHORTCUTS_TITLE,
  homeShortcuts,
  type HomeShortcut,
} from "@/features/activities/components/home-extras";
import { buildCampaign, LUCKY_NUMBERS_CALL } from "@/features/lucky-numbers/testing/lucky-number-fixtures";
import { buildStation, buildWalletBalance, jsonResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { stubApi } from "@/testing/stub-api";

const BALANCE = "GET /api/users-points/1";

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  signIn();
});

function stubHome(data: HomeData = {}) {
  return stubApi({ [BALANCE]: () => jsonResponse(buildWalletBalance()), ...homeHandlers(data) });
}

async function renderHome() {
  const rendered = renderApp({ path: "/homepage" });
  await screen.findByRole("heading", { name: "Início" });
  await waitFor(() => expect(screen.queryByRole("status", { name: "Carregando atividades" })).not.toBeInTheDocument());
  return rendered;
}

const visibleSlide = () => screen.getByRole("group", { name: /de 3$/ });

describe("featured carousel", () => {
  it("advances every 5 seconds and wraps to the first", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    stubHome({ featured: buildActivityCards(3) });
    await renderHome();

    await expectCarouselAdvancesEvery5sAndWraps(3);
  });

  it("holds still while the pointer is on it, and lets the member pick a slide", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    stubHome({ featured: buildActivityCards(3) });
    await renderHome();
    const carousel = screen.getByRole("region", { name: "Destaques" });

    fireEvent.mouseEnter(carousel);
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(visibleSlide()).toHaveAccessibleName("1 de 3");

    fireEvent.click(screen.getByRole("button", { name: "Destaque 3" }));
    expect(visibleSlide()).toHaveAccessibleName("3 de 3");
    fireEvent.mouseLeave(carousel);
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    expect(visibleSlide()).toHaveAccessibleName("1 de 3");
  });
});

describe("featured carousel's motion", () => {
  it("stops for good with its pause button, and plays again", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    stubHome({ featured: buildActivityCards(3) });
    await renderHome();

    fireEvent.click(screen.getByRole("button", { name: "Pausar destaques" }));
    fireEvent.blur(screen.getByRole("button", { name: "Reproduzir destaques" }));
    await act(() => vi.advanceTimersByTimeAsync(15_000));
    expect(visibleSlide()).toHaveAccessibleName("1 de 3");

    fireEvent.click(screen.getByRole("button", { name: "Reproduzir destaques" }));
    fireEvent.blur(screen.getByRole("button", { name: "Pausar destaques" }));
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    expect(visibleSlide()).toHaveAccessibleName("2 de 3");
  });

  it("stands still for those who ask for reduced motion until they play it", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const matchMedia = vi.fn((query: string) => ({ matches: query.includes("reduce"), media: query }));
    vi.stubGlobal("matchMedia", matchMedia);
    stubHome({ featured: buildActivityCards(3) });
    await renderHome();

    await act(() => vi.advanceTimersByTimeAsync(15_000));
    expect(visibleSlide()).toHaveAccessibleName("1 de 3");
    expect(screen.getByRole("button", { name: "Reproduzir destaques" })).toBeInTheDocument();
    vi.unstubAllGlobals();
  });
});

describe("rows", () => {
  it("shows a now-playing row with its title and cards", async () => {
    stubHome({ nowPlaying: [{ id: 1, title: "Em alta", actions: buildActivityCards(2) }] });
    await renderHome();

    const row = screen.getByRole("region", { name: "Em alta" });
    expect(within(row).getAllByRole("article")).toHaveLength(2);
  });

  it("shows a journey's done activities first, as the server sends them, starting at the first not done", async () => {
    vi.spyOn(HTMLElement.prototype, "offsetLeft", "get").mockImplementation(function (this: HTMLElement) {
      return this.tagName === "LI" ? Array.from(this.parentElement?.children ?? []).indexOf(this) * 100 : 0;
    });
    const journey: Journey = {
      id: 5,
      name: "Jornada do associado",
      completed: 2,
      actions: [
        { ...buildActivityCard({ id: 1, name: "Feita A" }), hasDone: true },
        { ...buildActivityCard({ id: 2, name: "Feita B" }), hasDone: true },
        { ...buildActivityCard({ id: 3, name: "Próxima" }), hasDone: false },
        { ...buildActivityCard({ id: 4, name: "Depois" }), hasDone: false },
      ],
    };
    stubHome({ journeys: [journey] });
    await renderHome();

    const row = screen.getByRole("region", { name: "Jornada do associado" });
    expect(within(row).getAllByRole("article").map((card) => card.textContent)).toEqual([
      expect.stringContaining("Feita A"),
      expect.stringContaining("Feita B"),
      expect.stringContaining("Próxima"),
      expect.stringContaining("Depois"),
    ]);
    expect(within(row).getByRole("list").scrollLeft).toBe(200);
  });

  it("asks for 4 cards per category and links to its page when it holds more (actions_count)", async () => {
    const api = stubHome({
      categories: [
        buildCategory({ id: 1, name: "Saúde", actions: buildActivityCards(4) }),
        buildCategory({ id: 2, name: "Lazer", actions: buildActivityCards(4), actions_count: 9 }),
      ],
    });
    await renderHome();

    expect(api.callsTo(HOME_CALLS.categories)).toHaveLength(1);
    const health = screen.getByRole("region", { name: "Saúde" });
    expect(within(health).queryByRole("link", { name: "Ver mais" })).not.toBeInTheDocument();
    expect(within(health).getAllByRole("article")).toHaveLength(4);
    const leisure = screen.getByRole("region", { name: "Lazer" });
    expect(within(leisure).getByRole("link", { name: "Ver mais" })).toHaveAttribute("href", "/homepage/categoria/2");
    expect(within(leisure).getAllByRole("article")).toHaveLength(4);
  });

  it("hides rows left empty", async () => {
    stubHome({
      featured: buildActivityCards(1),
      nowPlaying: [{ id: 1, title: "Em alta", actions: [] }],
      categories: [buildCategory({ name: "Saúde" })],
    });
    await renderHome();

    expect(screen.queryByRole("region", { name: "Em alta" })).not.toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Saúde" })).not.toBeInTheDocument();
  });
});

describe("states", () => {
  it("shows placeholders while loading, then the empty message when there is nothing", async () => {
    let answer: (response: Response) => void = () => undefined;
    stubApi({
      [BALANCE]: () => jsonResponse(buildWalletBalance()),
      ...homeHandlers(),
      [HOME_CALLS.journeys]: () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    renderApp({ path: "/homepage" });

    const skeletons = await screen.findByRole("status", { name: "Carregando atividades" });
    expect(skeletons.children).toHaveLength(6);
    answer(jsonResponse([]));

    expect(await screen.findByText("Ainda não existem atividades no ar...")).toBeInTheDocument();
  });

  it("shows the server's message when journeys fail, and the other rows", async () => {
    stubApi({
      [BALANCE]: () => jsonResponse(buildWalletBalance()),
      ...homeHandlers({ featured: buildActivityCards(1) }),
      [HOME_CALLS.journeys]: () => jsonResponse({ messages: ["Jornadas indisponíveis"] }, 422),
    });
    await renderHome();

    expect(await screen.findByText("Jornadas indisponíveis")).toBeInTheDocument();
    expect(screen.getByRole("group", { name: "1 de 1" })).toBeInTheDocument();
  });

  it("shows the station's logo", async () => {
    stubHome();
    await renderHome();

    expect(within(screen.getByRole("main")).getByRole("img", { name: "Clube Filia Demo" })).toBeInTheDocument();
  });
});

describe("the home's extras", () => {
  const LUCKY_STATION = buildStation({ lucky_numbers_access: true });
  const SHORTCUTS_STATION = buildStation({ home_shortcuts_access: true });

  it("shows the lucky-number card with each campaign's publication text, linking to the numbers", async () => {
    stubApi({
      [BALANCE]: () => jsonResponse(buildWalletBalance()),
      ...homeHandlers({}),
      [LUCKY_NUMBERS_CALL]: () => jsonResponse([buildCampaign(), buildCampaign({ id: 2, name: "Outro sorteio" })]),
    });
    const { page } = renderApp({ path: "/homepage", station: LUCKY_STATION });

    const card = await screen.findByRole("region", { name: "Números da sorte" });
    // Two campaigns with one publication date: the text once.
    expect(within(card).getAllByText("Os números da sorte serão publicados até 01/02/2027 às 16h.")).toHaveLength(1);
    fireEvent.click(within(card).getByRole("link", { name: LUCKY_CARD_LINK_TEXT }));
    await waitFor(() => expect(page.location.pathname).toBe("/homepage/numeros-da-sorte"));
  });

  it("shows no lucky-number card without a campaign, nor where the station has no lucky numbers", async () => {
    const api = stubApi({ [BALANCE]: () => jsonResponse(buildWalletBalance()), ...homeHandlers({}), [LUCKY_NUMBERS_CALL]: () => jsonResponse([]) });
    renderApp({ path: "/homepage", station: LUCKY_STATION });
    await screen.findByRole("heading", { name: "Início" });
    await waitFor(() => expect(api.calls.some((call) => call.url === "/api/giveaway-numbers/1")).toBe(true));
    expect(screen.queryByRole("region", { name: "Números da sorte" })).not.toBeInTheDocument();
    cleanup();

    const other = stubHome();
    await renderHome();
    expect(screen.queryByRole("region", { name: "Números da sorte" })).not.toBeInTheDocument();
    expect(other.calls.some((call) => call.url.startsWith("/api/giveaway-numbers"))).toBe(false);
  });

  it("shows the shortcut tiles where the station turns them on: a list under a heading, of links", async () => {
    stubHome();
    const { page } = renderApp({ path: "/homepage", station: SHORTCUTS_STATION });

    const nav = await screen.findByRole("navigation", { name: SHORTCUTS_TITLE });
    expect(within(nav).getByRole("heading", { level: 2, name: "Atalhos" })).toBeInTheDocument();
    const links = within(within(nav).getByRole("list")).getAllByRole("link");
    expect(links.map((link) => [link.textContent, link.getAttribute("href")])).toEqual([
      ["Prestação de contas", "/homepage/prestacao-de-contas"],
    ]);
    fireEvent.click(links[0] as HTMLElement);
    await waitFor(() => expect(page.location.pathname).toBe("/homepage/prestacao-de-contas"));
  });

  it("shows no tiles where the station does not turn them on", async () => {
    stubHome();
    await renderHome();
    expect(screen.queryByRole("navigation", { name: SHORTCUTS_TITLE })).not.toBeInTheDocument();
  });

  it("lists only the tiles whose page the station offers, in order", () => {
    const always: HomeShortcut = { shown: () => true, label: "A", icon: () => null, to: "/homepage/a" };
    const luckyOnly: HomeShortcut = { shown: (station) => station.lucky_numbers_access, label: "B", icon: () => null, to: "/homepage/b" };
    expect(homeShortcuts(SHORTCUTS_STATION, [always, luckyOnly]).map((tile) => tile.label)).toEqual(["A"]);
    expect(homeShortcuts(buildStation({ home_shortcuts_access: true, lucky_numbers_access: true }), [always, luckyOnly]).map((tile) => tile.label)).toEqual(["A", "B"]);
    expect(homeShortcuts(buildStation(), [always, luckyOnly])).toEqual([]);
    // The spec's order (spec 001 "Home"); each tile's page is walked in menu-walk.test.
    expect(HOME_SHORTCUTS.map((tile) => tile.to)).toEqual([
      "/homepage/politico-sindical",
      "/homepage/consultoria-juridica",
      "/homepage/consultoria-contabil",
      "/homepage/saude",
      "/homepage/prestacao-de-contas",
    ]);
  });

  it("shows each desk's tile where the station offers the desk, in the spec's order", async () => {
    stubHome();
    renderApp({
      path: "/homepage",
      station: buildStation({ home_shortcuts_access: true, legal_access: true, accounting_access: true, health_access: true, political_access: true }),
    });
    const nav = await screen.findByRole("navigation", { name: SHORTCUTS_TITLE });
    const links = within(within(nav).getByRole("list")).getAllByRole("link");
    expect(links.map((link) => [link.textContent, link.getAttribute("href")])).toEqual([
      ["Político-sindical", "/homepage/politico-sindical"],
      ["Consultoria jurídica", "/homepage/consultoria-juridica"],
      ["Consultoria contábil", "/homepage/consultoria-contabil"],
      ["Saúde", "/homepage/saude"],
      ["Prestação de contas", "/homepage/prestacao-de-contas"],
    ]);
    // The icons are decoration: each link's name is its label alone.
    expect(within(nav).getByRole("link", { name: "Saúde" })).toBeInTheDocument();
  });

  it("leaves out the tile of a desk the station does not offer", () => {
    const station = buildStation({ home_shortcuts_access: true, health_access: true, political_access: true });
    expect(homeShortcuts(station).map((tile) => tile.label)).toEqual(["Político-sindical", "Saúde", "Prestação de contas"]);
  });
});

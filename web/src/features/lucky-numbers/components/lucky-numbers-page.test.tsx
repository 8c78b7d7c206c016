import { fireEvent, screen, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { buildCampaign, buildLuckyNumber, LUCKY_NUMBERS_CALL } from "@/features/lucky-numbers/testing/lucky-number-fixtures";
import { buildStation, buildWalletBalance, jsonResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { stubApi, type ApiHandler } from "@/testing/stub-api";

const PATH = "/homepage/numeros-da-sorte";
const LUCKY_STATION = buildStation({ lucky_numbers_access: true });

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  signIn();
});

function stubNumbers(handler: ApiHandler) {
  return stubApi({
    "GET /api/users-points/1": () => jsonResponse(buildWalletBalance()),
    [LUCKY_NUMBERS_CALL]: handler,
  });
}

const notifications = () => screen.getByRole("region", { name: "Notificações" });

describe("lucky numbers", () => {
  it("shows placeholders while the numbers load", async () => {
    stubNumbers(() => new Promise<Response>(() => undefined));
    renderApp({ path: PATH, station: LUCKY_STATION });
    expect(await screen.findByRole("heading", { name: "Números da sorte" })).toBeInTheDocument();
    expect(screen.getByRole("status", { name: "Carregando números da sorte" })).toBeInTheDocument();
  });

  it("shows each campaign's publication text and the member's numbers with the activity and day", async () => {
    stubNumbers(() =>
      jsonResponse([
        buildCampaign({
          numbers: [
            buildLuckyNumber(),
            buildLuckyNumber({ number: "90310", participation_id: 32, action_name: "Termo de adesão", participated_at: "2026-12-07T15:00:00Z" }),
          ],
        }),
      ]),
    );
    renderApp({ path: PATH, station: LUCKY_STATION });

    const campaign = await screen.findByRole("region", { name: "Sorteio de fim de ano" });
    expect(within(campaign).getByText("Os números da sorte serão publicados até 01/02/2027 às 16h.")).toBeInTheDocument();
    const numbers = within(within(campaign).getByRole("list", { name: "Seus números: Sorteio de fim de ano" })).getAllByRole("listitem");
    expect(numbers).toHaveLength(2);
    expect(within(numbers[0]!).getByText("04217")).toBeInTheDocument();
    expect(within(numbers[0]!).getByText("Conheça a história do clube")).toBeInTheDocument();
    expect(within(numbers[0]!).getByText("05/12/2026")).toBeInTheDocument();
    expect(within(numbers[1]!).getByText("90310")).toBeInTheDocument();
    expect(within(numbers[1]!).getByText("Termo de adesão")).toBeInTheDocument();
  });

  it("keeps the publication text for a campaign the member holds no number in yet", async () => {
    stubNumbers(() => jsonResponse([buildCampaign({ numbers: [] })]));
    renderApp({ path: PATH, station: LUCKY_STATION });

    const campaign = await screen.findByRole("region", { name: "Sorteio de fim de ano" });
    expect(within(campaign).getByText(/serão publicados até 01\/02\/2027 às 16h/)).toBeInTheDocument();
    expect(within(campaign).getByText("Você ainda não tem números da sorte neste sorteio.")).toBeInTheDocument();
    expect(within(campaign).queryByRole("list")).not.toBeInTheDocument();
  });

  it("says there is no giveaway when the station runs none", async () => {
    const api = stubNumbers(() => jsonResponse([]));
    renderApp({ path: PATH, station: LUCKY_STATION });
    expect(await screen.findByText("Não há sorteios no momento.")).toBeInTheDocument();
    expect(api.callsTo(LUCKY_NUMBERS_CALL)).toHaveLength(1);
  });

  it("stops loading quietly when the numbers cannot be read: the empty text, no toast", async () => {
    stubNumbers(() => jsonResponse({ error: "Números da sorte não disponíveis." }, 404));
    renderApp({ path: PATH, station: LUCKY_STATION });

    expect(await screen.findByText("Não há sorteios no momento.")).toBeInTheDocument();
    expect(screen.queryByRole("status", { name: "Carregando números da sorte" })).not.toBeInTheDocument();
    expect(within(notifications()).queryByText(/disponíveis/)).not.toBeInTheDocument();
  });

  it("is not found, without asking the API, where the station does not show lucky numbers", async () => {
    const api = stubNumbers(() => jsonResponse([]));
    renderApp({ path: PATH });

    expect(await screen.findByRole("heading", { name: "Página não encontrada" })).toBeInTheDocument();
    expect(api.callsTo(LUCKY_NUMBERS_CALL)).toHaveLength(0);
  });
});

describe("lucky numbers menu entry", () => {
  async function drawerLinks(station = buildStation()) {
    stubNumbers(() => jsonResponse([]));
    renderApp({ path: "/homepage", station });
    await screen.findByRole("heading", { name: "Início" });
    fireEvent.click(screen.getByRole("button", { name: "Menu" }));
    return within(screen.getByRole("navigation", { name: "Menu principal" }));
  }

  it("shows 'Números da sorte' where the station's flag is on", async () => {
    const drawer = await drawerLinks(LUCKY_STATION);
    expect(drawer.getByRole("link", { name: "Números da sorte" })).toHaveAttribute("href", PATH);
  });

  it("leaves it out where the flag is off", async () => {
    const drawer = await drawerLinks();
    expect(drawer.queryByRole("link", { name: "Números da sorte" })).not.toBeInTheDocument();
  });
});

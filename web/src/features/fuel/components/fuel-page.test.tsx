import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import {
  buildFuelCampaign,
  buildFuelVoucher,
  CAMPAIGNS_CALL,
  TAKE_CALL,
  VOUCHERS_CALL,
} from "@/features/fuel/testing/fuel-fixtures";
import { buildStation, buildWalletBalance, jsonResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { stubApi, type ApiHandler } from "@/testing/stub-api";
import type { FuelVoucher } from "@/types/api";

const PATH = "/homepage/legisclub-gasolina";
const FUEL_STATION = buildStation({ fuel_campaign_access: true });

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  signIn();
});

function stubFuel(handlers: Record<string, ApiHandler>) {
  return stubApi({ "GET /api/users-points/1": () => jsonResponse(buildWalletBalance()), ...handlers });
}

const notifications = () => screen.getByRole("region", { name: "Notificações" });

describe("the fuel campaign page", () => {
  it("shows the tabs, with the campaigns as cards to pick", async () => {
    stubFuel({
      [CAMPAIGNS_CALL]: () =>
        jsonResponse([
          buildFuelCampaign(),
          buildFuelCampaign({ id: 4, nomeCampanha: "Etanol", tipoVoucher: "Etanol", volume: 25.5, valorVoucher: 9_975, possuiVoucher: true }),
        ]),
    });
    renderApp({ path: PATH, station: FUEL_STATION });

    expect(await screen.findByRole("heading", { level: 1, name: "Campanha de combustível" })).toBeInTheDocument();
    const tabs = within(screen.getByRole("tablist", { name: "Campanha de combustível" })).getAllByRole("tab");
    expect(tabs.map((tab) => tab.textContent)).toEqual(["Campanhas", "Meus Vouchers"]);
    expect(tabs[0]).toHaveAttribute("aria-selected", "true");

    const gasoline = await screen.findByRole("radio", { name: "Gasolina do associado" });
    expect(gasoline).toHaveAccessibleDescription(/20 litros de Gasolina comum · R\$ 119,80/);
    expect(gasoline).toHaveAccessibleDescription(/Válido por 30 dias/);
    const ethanol = screen.getByRole("radio", { name: "Etanol" });
    expect(ethanol).toBeDisabled();
    expect(ethanol).toHaveAccessibleDescription(/25,5 litros de Etanol · R\$ 99,75.*Você já possui o voucher desta campanha\./);
  });

  it("moves between tabs with the arrow keys", async () => {
    stubFuel({ [CAMPAIGNS_CALL]: () => jsonResponse([]), [VOUCHERS_CALL]: () => jsonResponse([]) });
    const { page } = renderApp({ path: PATH, station: FUEL_STATION });
    const campaigns = await screen.findByRole("tab", { name: "Campanhas" });
    fireEvent.keyDown(campaigns, { key: "ArrowRight" });

    const vouchers = screen.getByRole("tab", { name: "Meus Vouchers" });
    expect(vouchers).toHaveAttribute("aria-selected", "true");
    expect(vouchers).toHaveFocus();
    expect(page.location.search).toBe("?aba=vouchers");
    expect(await screen.findByText("Você ainda não possui vouchers de combustível.")).toBeInTheDocument();
    fireEvent.keyDown(vouchers, { key: "ArrowLeft" });
    expect(screen.getByRole("tab", { name: "Campanhas" })).toHaveAttribute("aria-selected", "true");
    // Home and End go to the list's ends.
    fireEvent.keyDown(screen.getByRole("tab", { name: "Campanhas" }), { key: "End" });
    expect(screen.getByRole("tab", { name: "Meus Vouchers" })).toHaveAttribute("aria-selected", "true");
    expect(screen.getByRole("tab", { name: "Meus Vouchers" })).toHaveFocus();
    fireEvent.keyDown(screen.getByRole("tab", { name: "Meus Vouchers" }), { key: "Home" });
    expect(screen.getByRole("tab", { name: "Campanhas" })).toHaveAttribute("aria-selected", "true");
    expect(screen.getByRole("tab", { name: "Campanhas" })).toHaveFocus();
  });

  it("asks for a campaign before generating, then generates it and shows the voucher in 'Meus Vouchers'", async () => {
    let vouchers: FuelVoucher[] = [];
    let held = false;
    const api = stubFuel({
      [CAMPAIGNS_CALL]: () => jsonResponse([buildFuelCampaign({ possuiVoucher: held })]),
      [VOUCHERS_CALL]: () => jsonResponse(vouchers),
      [TAKE_CALL]: () => {
        held = true;
        vouchers = [buildFuelVoucher()];
        return jsonResponse(vouchers[0], 201);
      },
    });
    const { page } = renderApp({ path: PATH, station: FUEL_STATION });
    const generate = await screen.findByRole("button", { name: "Gerar voucher" });

    fireEvent.click(generate);
    expect(await screen.findByRole("alert")).toHaveTextContent("Selecione uma campanha para gerar o voucher.");
    expect(api.callsTo(TAKE_CALL)).toHaveLength(0);

    fireEvent.click(screen.getByRole("radio", { name: "Gasolina do associado" }));
    fireEvent.click(generate);

    await waitFor(() => expect(page.location.search).toBe("?aba=vouchers"));
    expect(api.bodySentTo(TAKE_CALL)).toEqual({ fuel_id: 3, user_id: 1 });
    const voucher = await screen.findByRole("article", { name: "Gasolina do associado" });
    expect(within(voucher).getByText("ABCD-EFGH-JKLM")).toBeInTheDocument();
    const fact = (term: string) => within(voucher).getByText(term).nextElementSibling?.textContent;
    expect(fact("Tipo")).toBe("Gasolina comum");
    expect(fact("Volume")).toBe("20 litros");
    expect(fact("Valor")).toBe("R$ 119,80");
    expect(fact("Emissão")).toBe("10/12/2026");
    expect(fact("Validade")).toBe("09/01/2027");
    expect(fact("Situação")).toBe("Válido");
    expect(screen.getByText("Voucher gerado com sucesso!")).toBeInTheDocument();

    // The campaigns were read again: the one taken is held now.
    fireEvent.click(screen.getByRole("tab", { name: "Campanhas" }));
    expect(await screen.findByRole("radio", { name: "Gasolina do associado" })).toBeDisabled();
    expect(api.callsTo(CAMPAIGNS_CALL).length).toBeGreaterThanOrEqual(2);
  });

  it("shows the answer's text when a voucher is refused, else 'Erro interno do sistema'", async () => {
    let answer = () => jsonResponse({ error: "Os vouchers desta campanha se esgotaram." }, 409);
    stubFuel({
      [CAMPAIGNS_CALL]: () => jsonResponse([buildFuelCampaign()]),
      [TAKE_CALL]: () => answer(),
    });
    renderApp({ path: PATH, station: FUEL_STATION });
    fireEvent.click(await screen.findByRole("radio", { name: "Gasolina do associado" }));
    fireEvent.click(screen.getByRole("button", { name: "Gerar voucher" }));
    expect(await within(notifications()).findByText("Os vouchers desta campanha se esgotaram.")).toBeInTheDocument();
    expect(screen.getByRole("tab", { name: "Campanhas" })).toHaveAttribute("aria-selected", "true");

    answer = () => new Response("<html>Bad gateway</html>", { status: 502 });
    fireEvent.click(screen.getByRole("button", { name: "Gerar voucher" }));
    expect(await within(notifications()).findByText("Erro interno do sistema")).toBeInTheDocument();
  });

  it("shows expired and used vouchers as such", async () => {
    stubFuel({
      [CAMPAIGNS_CALL]: () => jsonResponse([]),
      [VOUCHERS_CALL]: () =>
        jsonResponse([
          buildFuelVoucher({ id: 1, nomeCampanha: "Vencida", status: "expired" }),
          buildFuelVoucher({ id: 2, nomeCampanha: "Usada", status: "used", volume: 1 }),
        ]),
    });
    renderApp({ path: `${PATH}?aba=vouchers`, station: FUEL_STATION });
    const expired = await screen.findByRole("article", { name: "Vencida" });
    expect(within(expired).getByText("Vencido")).toBeInTheDocument();
    const used = screen.getByRole("article", { name: "Usada" });
    expect(within(used).getByText("Utilizado")).toBeInTheDocument();
    expect(within(used).getByText("1 litro")).toBeInTheDocument();
  });

  it("shows placeholders while loading, the empty text, and a failure with a retry", async () => {
    let campaigns: () => Response | Promise<Response> = () => new Promise<Response>(() => undefined);
    stubFuel({ [CAMPAIGNS_CALL]: () => campaigns() });
    const first = renderApp({ path: PATH, station: FUEL_STATION });
    expect(await screen.findByRole("status", { name: "Carregando campanhas" })).toBeInTheDocument();
    first.unmount();

    campaigns = () => jsonResponse([]);
    const second = renderApp({ path: PATH, station: FUEL_STATION });
    expect(await screen.findByText("Não há campanhas disponíveis.")).toBeInTheDocument();
    second.unmount();

    campaigns = () => jsonResponse({ error: "Campanha de combustível não disponível." }, 404);
    renderApp({ path: PATH, station: FUEL_STATION });
    expect(await screen.findByRole("alert")).toHaveTextContent("Não foi possível carregar as campanhas.");
    campaigns = () => jsonResponse([buildFuelCampaign()]);
    fireEvent.click(screen.getByRole("button", { name: "Tentar novamente" }));
    expect(await screen.findByRole("radio", { name: "Gasolina do associado" })).toBeInTheDocument();
  });

  it("is not found, without asking the API, where the station offers no fuel campaign", async () => {
    const api = stubFuel({ [CAMPAIGNS_CALL]: () => jsonResponse([]) });
    renderApp({ path: PATH });
    expect(await screen.findByRole("heading", { name: "Página não encontrada" })).toBeInTheDocument();
    expect(api.callsTo(CAMPAIGNS_CALL)).toHaveLength(0);
  });
});

describe("the fuel campaign's menu entry", () => {
  async function accountLinks(station = buildStation()) {
    stubFuel({ [CAMPAIGNS_CALL]: () => jsonResponse([]) });
    renderApp({ path: "/homepage", station });
    await screen.findByRole("heading", { name: "Início" });
    fireEvent.click(screen.getByRole("button", { name: "Menu" }));
    return within(screen.getByRole("navigation", { name: "Menu principal" }));
  }

  it("closes 'Minha conta' where the station offers the campaign", async () => {
    const drawer = await accountLinks(FUEL_STATION);
    const account = within(drawer.getByRole("region", { name: "Minha conta" })).getAllByRole("link");
    expect(account.at(-1)).toHaveAccessibleName("Combustível");
    expect(account.at(-1)).toHaveAttribute("href", PATH);
  });

  it("is left out where it does not", async () => {
    const drawer = await accountLinks();
    expect(drawer.queryByRole("link", { name: "Combustível" })).not.toBeInTheDocument();
  });
});

import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { BALANCE_REFRESH_INTERVAL_MS } from "@/features/wallet/api/get-balance";
import {
  buildEarnTransaction,
  buildStation,
  buildUseTransaction,
  buildWalletBalance,
  buildWalletDebt,
  jsonResponse,
  signIn,
} from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { stubApi, type ApiHandler } from "@/testing/stub-api";
import type { Station } from "@/types/api";

const STATEMENT_PATH = "/homepage/extrato/extratos-totais";
const BALANCE = "GET /api/users-points/1";
const spentPage = (page: number) => `GET /api/use-points-transactions/?where[user_id]=1&page=${page}`;
const earnedPage = (page: number) => `GET /api/earn-points-transactions/?where[user_id]=1&page=${page}`;
const debtsPage = (page: number) => `GET /api/wallet-debts/?where[user_id]=1&page=${page}`;

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  signIn();
});

function stubWallet(handlers: Record<string, ApiHandler> = {}) {
  return stubApi({
    [BALANCE]: () => jsonResponse(buildWalletBalance()),
    [spentPage(1)]: () => jsonResponse([]),
    [earnedPage(1)]: () => jsonResponse([]),
    [debtsPage(1)]: () => jsonResponse([]),
    ...handlers,
  });
}

async function renderStatement({ path = STATEMENT_PATH, station }: { path?: string; station?: Station } = {}) {
  const rendered = renderApp({ path, station });
  await screen.findByRole("heading", { name: "Extrato" });
  return rendered;
}

const tab = (name: string) => screen.getByRole("tab", { name });
const panel = () => screen.getByRole("tabpanel");

function summaryValue(term: string) {
  const item = screen.getByText(term, { selector: "dt" }).parentElement as HTMLElement;
  return within(item).getByRole("definition");
}

describe("statement summary", () => {
  it("shows the balance and what waits for release in the station's currency", async () => {
    stubWallet();
    await renderStatement();

    await waitFor(() => expect(summaryValue("Saldo")).toHaveTextContent("150,50 Pontos"));
    expect(summaryValue("A liberar")).toHaveTextContent("50,00 Pontos");
  });

  it("applies the station's multiplier and puts the currency name before", async () => {
    stubWallet();
    await renderStatement({
      station: buildStation({
        currency_multiplier: 0.01,
        currency_name: "R$",
        currency_name_position: "before_currency",
      }),
    });

    await waitFor(() => expect(summaryValue("Saldo")).toHaveTextContent("R$ 1,51"));
    expect(summaryValue("A liberar")).toHaveTextContent("R$ 0,50");
  });

  it("says the balance is unavailable when it cannot be read", async () => {
    stubWallet({
      [BALANCE]: () => jsonResponse({ error: "Você não possui autorização para acessar esta página." }, 403),
    });
    await renderStatement();

    await waitFor(() => expect(summaryValue("Saldo")).toHaveTextContent("Indisponível"));
  });
});

describe("statement tabs", () => {
  it("opens on 'Créditos Utilizados' and says when there are no spends", async () => {
    stubWallet();
    await renderStatement();

    expect(screen.getAllByRole("tab").map((element) => element.textContent)).toEqual([
      "Créditos Utilizados",
      "Créditos de Premiação",
    ]);
    expect(tab("Créditos Utilizados")).toHaveAttribute("aria-selected", "true");
    expect(
      await within(panel()).findByText("Você ainda não fez transações com créditos na plataforma."),
    ).toBeInTheDocument();
    expect(panel()).toHaveAccessibleName("Créditos Utilizados");
  });

  it("switches to 'Créditos de Premiação', kept in the address, and says when there are no credits", async () => {
    stubWallet();
    const { page } = await renderStatement();

    fireEvent.click(tab("Créditos de Premiação"));

    expect(tab("Créditos de Premiação")).toHaveAttribute("aria-selected", "true");
    expect(tab("Créditos Utilizados")).toHaveAttribute("aria-selected", "false");
    expect(await within(panel()).findByText("Você ainda não ganhou créditos na plataforma.")).toBeInTheDocument();
    expect(page.location.search).toBe("?aba=premiacao");
  });

  it("opens the tab the address names", async () => {
    stubWallet();
    await renderStatement({ path: `${STATEMENT_PATH}?aba=premiacao` });

    expect(tab("Créditos de Premiação")).toHaveAttribute("aria-selected", "true");
    expect(await screen.findByText("Você ainda não ganhou créditos na plataforma.")).toBeInTheDocument();
  });

  it("moves between the tabs with the arrow keys", async () => {
    stubWallet();
    await renderStatement();

    fireEvent.keyDown(tab("Créditos Utilizados"), { key: "ArrowRight" });
    expect(tab("Créditos de Premiação")).toHaveAttribute("aria-selected", "true");
    expect(tab("Créditos de Premiação")).toHaveFocus();
    fireEvent.keyDown(tab("Créditos de Premiação"), { key: "ArrowRight" });
    expect(tab("Créditos Utilizados")).toHaveAttribute("aria-selected", "true");
    fireEvent.keyDown(tab("Créditos Utilizados"), { key: "ArrowLeft" });
    expect(tab("Créditos de Premiação")).toHaveAttribute("aria-selected", "true");
  });
});

function lines() {
  return within(panel())
    .getAllByRole("listitem")
    .map((item) => item.textContent);
}

describe("statement lines", () => {
  it("lists spends with name, date and formatted amount", async () => {
    stubWallet({
      [spentPage(1)]: () =>
        jsonResponse([
          buildUseTransaction({
            id: 5,
            points_cents: 123456,
            createdAt: "2026-11-21T12:00:00Z",
            action: { id: null, name: "Pedido 43" },
          }),
          buildUseTransaction({ id: 4, points_cents: 2500, createdAt: "2026-11-20T12:00:00Z" }),
        ]),
    });
    await renderStatement();

    await within(panel()).findByText("Pedido 43");
    expect(lines()).toEqual(["Pedido 4321/11/20261.234,56 Pontos", "Pedido 4220/11/202625,00 Pontos"]);
  });

  it("tells each credit's state: when it is released, waiting for the release, reversed, expired", async () => {
    stubWallet({
      [earnedPage(1)]: () =>
        jsonResponse([
          buildEarnTransaction({ id: 1, state: "pending", available_at: "2099-12-01T12:00:00Z", released_at: null }),
          buildEarnTransaction({
            id: 2,
            state: "pending",
            available_at: "2020-01-01T12:00:00Z",
            released_at: null,
            action: { id: null, name: "Convite aceito" },
          }),
          buildEarnTransaction({ id: 3, state: "reversed", action: { id: null, name: "Cashback do pedido 7" } }),
          buildEarnTransaction({ id: 4, state: "expired", action: { id: 9, name: "Quiz da semana" } }),
          buildEarnTransaction({
            id: 5,
            state: "available",
            points_cents: 5050,
            action: { id: 10, name: "Compartilhamento" },
          }),
        ]),
    });
    await renderStatement({ path: `${STATEMENT_PATH}?aba=premiacao` });

    await within(panel()).findByText("Compartilhamento");
    expect(lines()).toEqual([
      "Recompensa de cadastro21/11/2026100,00 PontosA liberar em 01/12/2099",
      "Convite aceito21/11/2026100,00 PontosAguardando liberação",
      "Cashback do pedido 721/11/2026100,00 PontosEstornado",
      "Quiz da semana21/11/2026100,00 PontosExpirado",
      "Compartilhamento21/11/202650,50 Pontos",
    ]);
  });

  it("formats credits with the station's multiplier and currency name", async () => {
    stubWallet({ [earnedPage(1)]: () => jsonResponse([buildEarnTransaction({ points_cents: 5000 })]) });
    await renderStatement({
      path: `${STATEMENT_PATH}?aba=premiacao`,
      station: buildStation({
        currency_multiplier: 2.5,
        currency_name: "Moedas",
        currency_name_position: "before_currency",
      }),
    });

    expect(await within(panel()).findByText("Moedas 125,00")).toBeInTheDocument();
  });

  it("shows a skeleton while the list loads", async () => {
    stubWallet({ [spentPage(1)]: () => new Promise<Response>(() => undefined) });
    await renderStatement();

    const skeleton = within(panel()).getByRole("status", { name: "Carregando Créditos Utilizados" });
    expect(skeleton).toHaveAttribute("aria-busy", "true");
    expect(
      within(panel()).queryByText("Você ainda não fez transações com créditos na plataforma."),
    ).not.toBeInTheDocument();
  });

  it("says when the list could not be loaded and tries again on request", async () => {
    let calls = 0;
    const api = stubWallet({
      [earnedPage(1)]: () => {
        calls += 1;
        return calls === 1
          ? jsonResponse({ error: "Você não possui autorização para acessar esta página." }, 403)
          : jsonResponse([buildEarnTransaction()]);
      },
    });
    await renderStatement({ path: `${STATEMENT_PATH}?aba=premiacao` });

    const alert = await within(panel()).findByRole("alert");
    expect(alert).toHaveTextContent("Não foi possível carregar as transações.");
    fireEvent.click(within(alert).getByRole("button", { name: "Tentar novamente" }));

    expect(await within(panel()).findByText("Recompensa de cadastro")).toBeInTheDocument();
    expect(within(panel()).queryByRole("alert")).not.toBeInTheDocument();
    expect(api.callsTo(earnedPage(1))).toHaveLength(2);
  });
});

describe("statement refresh", () => {
  it("shows a credit released once the refreshed balance changed", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let released = false;
    const api = stubWallet({
      [BALANCE]: () =>
        jsonResponse(buildWalletBalance(released ? { points_cents: 5000, pending_cents: 0 } : { points_cents: 0 })),
      [earnedPage(1)]: () =>
        jsonResponse([
          buildEarnTransaction(
            released
              ? { state: "available", points_cents: 5000 }
              : { state: "pending", points_cents: 5000, available_at: "2020-01-01T12:00:00Z", released_at: null },
          ),
        ]),
    });
    await renderStatement({ path: `${STATEMENT_PATH}?aba=premiacao` });
    await within(panel()).findByText("Aguardando liberação");

    released = true;
    await act(() => vi.advanceTimersByTimeAsync(BALANCE_REFRESH_INTERVAL_MS));

    await waitFor(() => expect(summaryValue("Saldo")).toHaveTextContent("50,00 Pontos"));
    await waitFor(() => expect(within(panel()).queryByText("Aguardando liberação")).not.toBeInTheDocument());
    expect(lines()).toEqual(["Recompensa de cadastro21/11/202650,00 Pontos"]);
    expect(api.callsTo(earnedPage(1))).toHaveLength(2);
  });
});

describe("statement paging", () => {
  const fullPage = (from: number) =>
    Array.from({ length: 50 }, (_, index) =>
      buildEarnTransaction({ id: from + index, action: { id: null, name: `Crédito ${from + index}` } }),
    );

  it("loads the next page with 'Carregar mais' while a page comes full", async () => {
    const api = stubWallet({
      [earnedPage(1)]: () => jsonResponse(fullPage(1)),
      [earnedPage(2)]: () => jsonResponse([buildEarnTransaction({ id: 51, action: { id: null, name: "Crédito 51" } })]),
    });
    await renderStatement({ path: `${STATEMENT_PATH}?aba=premiacao` });

    await within(panel()).findByText("Crédito 50");
    expect(within(panel()).getAllByRole("listitem")).toHaveLength(50);
    fireEvent.click(within(panel()).getByRole("button", { name: "Carregar mais" }));

    expect(await within(panel()).findByText("Crédito 51")).toBeInTheDocument();
    expect(within(panel()).getAllByRole("listitem")).toHaveLength(51);
    expect(within(panel()).queryByRole("button", { name: "Carregar mais" })).not.toBeInTheDocument();
    expect(api.callsTo(earnedPage(2))).toHaveLength(1);
  });

  it("offers no 'Carregar mais' when the first page is not full", async () => {
    stubWallet({ [spentPage(1)]: () => jsonResponse([buildUseTransaction()]) });
    await renderStatement();

    await within(panel()).findByText("Pedido 42");
    expect(within(panel()).queryByRole("button", { name: "Carregar mais" })).not.toBeInTheDocument();
  });

  it("keeps the lines and says so when a next page fails", async () => {
    stubWallet({
      [earnedPage(1)]: () => jsonResponse(fullPage(1)),
      [earnedPage(2)]: () => jsonResponse({ error: "Página inválida." }, 422),
    });
    await renderStatement({ path: `${STATEMENT_PATH}?aba=premiacao` });

    await within(panel()).findByText("Crédito 50");
    fireEvent.click(within(panel()).getByRole("button", { name: "Carregar mais" }));

    expect(await within(panel()).findByText("Não foi possível carregar mais transações.")).toBeInTheDocument();
    expect(within(panel()).getAllByRole("listitem")).toHaveLength(50);
    expect(within(panel()).getByRole("button", { name: "Carregar mais" })).toBeEnabled();
  });
});

describe("debts (cashback spent before its refund)", () => {
  it("shows what is owed beside a zero balance, each debt and what later credits paid", async () => {
    stubWallet({
      [BALANCE]: () =>
        jsonResponse(buildWalletBalance({ points: 0, points_cents: 0, debt_points: 15, debt_cents: 1500 })),
      [debtsPage(1)]: () =>
        jsonResponse([
          buildWalletDebt(),
          buildWalletDebt({
            id: 1,
            points_cents: 1000,
            settled_cents: 1000,
            open_cents: 0,
            description: "Estorno de crédito já utilizado: Quiz da semana",
            createdAt: "2026-11-20T12:00:00Z",
            settled_at: "2026-11-21T12:00:00Z",
          }),
        ]),
      [spentPage(1)]: () =>
        jsonResponse([
          buildUseTransaction({
            id: 9,
            points_cents: 500,
            source_kind: "debt",
            createdAt: "2026-11-23T12:00:00Z",
            action: { id: null, name: "Quitação de débito" },
          }),
        ]),
    });
    await renderStatement();

    await waitFor(() => expect(summaryValue("Débito")).toHaveTextContent("15,00 Pontos"));
    expect(summaryValue("Saldo")).toHaveTextContent("0,00 Pontos");
    const debts = await screen.findByRole("region", { name: "Débitos" });
    expect(
      within(debts).getByText(
        "Créditos que você já tinha utilizado quando a compra ou participação que os gerou foi estornada. " +
          "Os próximos créditos quitam o débito antes de entrar no saldo.",
      ),
    ).toBeInTheDocument();
    expect(
      within(within(debts).getByRole("list", { name: "Débitos" }))
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual([
      "Estorno de crédito já utilizado: Cashback do pedido 9F3K2A22/11/202620,00 PontosEm aberto: 15,00 Pontos",
      "Estorno de crédito já utilizado: Quiz da semana20/11/202610,00 PontosQuitado",
    ]);
    await within(panel()).findByText("Quitação de débito");
    expect(lines()).toEqual(["Quitação de débito23/11/20265,00 Pontos"]);
  });

  it("shows neither the debt nor the section to a member who never had one", async () => {
    const api = stubWallet();
    await renderStatement();

    await waitFor(() => expect(summaryValue("Saldo")).toHaveTextContent("150,50 Pontos"));
    await waitFor(() => expect(api.callsTo(debtsPage(1))).toHaveLength(1));
    expect(screen.queryByText("Débito", { selector: "dt" })).not.toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Débitos" })).not.toBeInTheDocument();
  });
});

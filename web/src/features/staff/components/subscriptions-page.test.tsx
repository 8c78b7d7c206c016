import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { OpsSubscription } from "@/features/staff/api/subscriptions";
import { CANCEL_DONE, MEMBER_ID_INVALID, RETRY_DONE } from "@/features/staff/components/subscriptions-page";
import {
  buildOpsStation,
  buildOpsSubscription,
  buildOpsSubscriptionPeriod,
  buildOpsSubscriptionTry,
  buildPastDueSubscription,
  OPS_STATIONS,
  renderOps,
  stubOps,
  VIEWER,
} from "@/features/staff/testing/ops-fixtures";
import { formatDateTime } from "@/lib/dates";
import { jsonResponse } from "@/testing/fixtures";
import type { ApiHandler } from "@/testing/stub-api";
import type { OpsMe } from "@/types/api";

const LIST = "GET /api/ops/stations/1/subscriptions";
const OF_MEMBER = "GET /api/ops/stations/1/subscriptions?user_id=7";
const RETRY = "POST /api/ops/subscriptions/11/retry";
const CANCEL = "POST /api/ops/subscriptions/11/cancel";
const PAGE = "/ops/assinaturas?station_id=1";

const empty = (status: number) => () => new Response(null, { status });
const stations = () =>
  jsonResponse([buildOpsStation(), buildOpsStation({ id: 2, name: "Clube Saúde", subdomain: "saude" })]);

function stubSubscriptions(handlers: Record<string, ApiHandler>, me: Partial<OpsMe> = {}) {
  return stubOps({ [OPS_STATIONS]: stations, ...handlers }, me);
}

const listOf = (...subscriptions: OpsSubscription[]) => () => jsonResponse(subscriptions);
const card = (id: number) => screen.getByRole("article", { name: `Assinatura ${id}` });
const periods = (id: number) => screen.getByRole("table", { name: `Períodos da assinatura ${id}` });
const notifications = () => within(screen.getByRole("region", { name: "Notificações" }));

function cellsOf(row: HTMLElement) {
  return within(row)
    .getAllByRole("cell")
    .map((cell) => cell.textContent);
}

describe("subscriptions", () => {
  it("shows each subscription: status, member, plan, amount, current period, and its periods with their tries", async () => {
    stubSubscriptions({ [LIST]: listOf(buildPastDueSubscription()) });
    await renderOps(PAGE);

    expect(await screen.findByRole("heading", { name: "Assinaturas" })).toBeInTheDocument();
    const subscription = await screen.findByRole("article", { name: "Assinatura 11" });
    expect(within(subscription).getByText("Em atraso")).toHaveClass("ops-badge--failed");
    expect(subscription).toHaveTextContent("MembroMembro Demo (ID 7)");
    expect(subscription).toHaveTextContent("PlanoEssencial");
    expect(subscription).toHaveTextContent("Cartãovisa final 0010");
    expect(subscription).toHaveTextContent("Valor por períodoR$ 49,90 (Mensal)");
    expect(subscription).toHaveTextContent(
      `Período atualNº 1: ${formatDateTime("2026-12-01T12:00:00Z")} a ${formatDateTime("2027-01-01T12:00:00Z")}`,
    );
    // A single subscription opens its periods at once.
    expect(within(subscription).getByText("Períodos (2)").closest("details")).toHaveAttribute("open");

    const [renewal, first] = within(periods(11)).getAllByRole("row").slice(1);
    if (!renewal || !first) throw new Error("two periods expected");
    expect(cellsOf(renewal).slice(0, 7)).toEqual([
      "1",
      "Renovação",
      `${formatDateTime("2026-12-01T12:00:00Z")} a ${formatDateTime("2027-01-01T12:00:00Z")}`,
      "R$ 49,90",
      "Aguardando pagamento",
      "1",
      formatDateTime("2026-12-02T12:00:00Z"),
    ]);
    const tries = within(renewal).getByRole("list", { name: "Cobranças do período 1" });
    expect(tries).toHaveTextContent("Tentativa 1 · Recusada · R$ 49,90");
    expect(tries).toHaveTextContent("ch_31");
    expect(within(tries).getByText("Cartão recusado pelo emissor.")).toBeInTheDocument();

    expect(cellsOf(first).slice(0, 7)).toEqual([
      "0",
      "Primeiro período",
      `${formatDateTime("2026-11-01T12:00:00Z")} a ${formatDateTime("2026-12-01T12:00:00Z")}`,
      "R$ 49,90",
      `Pago em ${formatDateTime("2026-11-01T12:00:02Z")}`,
      "1",
      "—",
    ]);
    expect(within(first).getByRole("list", { name: "Cobranças do período 0" })).toHaveTextContent("Tentativa 1 · Paga");
  });

  it("says which paid tries the bank took back: a chargeback, a refund at the provider", async () => {
    const paid = (id: number, overrides: Parameters<typeof buildOpsSubscriptionTry>[0]) =>
      buildOpsSubscriptionPeriod({
        id,
        status: "paid",
        tries: [buildOpsSubscriptionTry({ id, status: "paid", failure_reason: null, ...overrides })],
      });
    stubSubscriptions({
      [LIST]: listOf(
        buildOpsSubscription({ id: 11, status: "ended", periods: [paid(21, { chargedback_at: "2026-11-20T12:00:00Z" })] }),
        buildOpsSubscription({ id: 12, periods: [paid(22, { bank_refunded_cents: 1000 })] }),
        buildOpsSubscription({ id: 13, periods: [paid(23, {})] }),
      ),
    });
    await renderOps(PAGE);
    await screen.findByRole("article", { name: "Assinatura 11" });

    expect(card(11)).toHaveTextContent("Contestada pelo titular do cartão (chargeback)");
    expect(card(12)).toHaveTextContent("Estornada no provedor: R$ 10,00");
    expect(card(13)).not.toHaveTextContent("Estornada");
    expect(card(13)).not.toHaveTextContent("Contestada");
  });

  it("names a product subscription's activity and product, its recurrence, a cancellation to come and a downgrade", async () => {
    stubSubscriptions({
      [LIST]: listOf(
        buildOpsSubscription({
          id: 12,
          plan_id: null,
          action_id: 40,
          product_id: 41,
          name: "Clube do livro",
          product_name: "Livro do mês",
          card_brand: null,
          card_last_digits: null,
          recurrence: "weekly",
          amount: 1500,
          cancel_at_period_end: true,
        }),
        buildOpsSubscription({ id: 13, next_plan_id: 2, next_plan_name: "Básico", status: "incomplete", periods: [] }),
        buildOpsSubscription({ id: 14, status: "ended" }),
      ),
    });
    await renderOps(PAGE);
    await screen.findByRole("article", { name: "Assinatura 12" });

    expect(screen.getByText("3 assinaturas")).toBeInTheDocument();
    const product = card(12);
    expect(product).toHaveTextContent("Atividade e produtoClube do livro · Livro do mês");
    expect(product).toHaveTextContent("Cartão—");
    expect(product).toHaveTextContent("R$ 15,00 (Semanal)");
    expect(product).toHaveTextContent(`Cancelada: termina em ${formatDateTime("2026-12-01T12:00:00Z")}, sem renovar.`);
    // Several subscriptions keep their periods folded.
    expect(within(product).getByText("Períodos (1)").closest("details")).not.toHaveAttribute("open");

    expect(card(13)).toHaveTextContent("Essencial · passa ao plano Básico na renovação");
    expect(within(card(13)).getByText("Aguardando o 1º pagamento")).toBeInTheDocument();
    expect(within(card(13)).getByText("Nenhum período ainda.")).toBeInTheDocument();
    expect(within(card(14)).getByText("Encerrada")).toBeInTheDocument();
  });

  it("offers 'Tentar cobrar agora' only where a renewal is unpaid, and 'Cancelar assinatura' only on a live one", async () => {
    stubSubscriptions({
      [LIST]: listOf(
        buildPastDueSubscription(),
        buildOpsSubscription({ id: 12 }),
        buildOpsSubscription({ id: 13, status: "incomplete", periods: [buildOpsSubscriptionPeriod({ status: "due" })] }),
        buildOpsSubscription({ id: 14, cancel_at_period_end: true }),
        buildOpsSubscription({ id: 15, status: "canceled" }),
      ),
    });
    await renderOps(PAGE);
    await screen.findByRole("article", { name: "Assinatura 11" });

    const buttonsOf = (id: number) =>
      within(card(id))
        .queryAllByRole("button")
        .map((button) => button.textContent);
    expect(buttonsOf(11)).toEqual(["Tentar cobrar agora", "Cancelar assinatura"]);
    expect(buttonsOf(12)).toEqual(["Cancelar assinatura"]);
    // The first charge is the member's to make again: the engine retries renewals only.
    expect(buttonsOf(13)).toEqual(["Cancelar assinatura"]);
    expect(buttonsOf(14)).toEqual([]);
    expect(buttonsOf(15)).toEqual([]);
  });

  it("tries the unpaid renewal now and reads the list again", async () => {
    let reads = 0;
    const api = stubSubscriptions({
      [LIST]: () => {
        reads += 1;
        return jsonResponse([
          reads === 1
            ? buildPastDueSubscription()
            : buildPastDueSubscription({
                status: "active",
                periods: [buildOpsSubscriptionPeriod({ id: 22, kind: "renewal", period_index: 1 })],
              }),
        ]);
      },
      [RETRY]: empty(202),
    });
    await renderOps(PAGE);
    await screen.findByRole("article", { name: "Assinatura 11" });

    fireEvent.click(within(card(11)).getByRole("button", { name: "Tentar cobrar agora" }));

    expect(await screen.findByText(RETRY_DONE)).toBeInTheDocument();
    expect(api.callsTo(RETRY)).toHaveLength(1);
    await waitFor(() => expect(within(card(11)).getByText("Ativa")).toBeInTheDocument());
    expect(within(card(11)).queryByRole("button", { name: "Tentar cobrar agora" })).not.toBeInTheDocument();
  });

  it("shows why a retry was refused", async () => {
    stubSubscriptions({
      [LIST]: listOf(buildPastDueSubscription()),
      [RETRY]: () => jsonResponse({ error: "Assinatura não encontrada." }, 404),
    });
    await renderOps(PAGE);
    await screen.findByRole("article", { name: "Assinatura 11" });

    fireEvent.click(within(card(11)).getByRole("button", { name: "Tentar cobrar agora" }));

    expect(await notifications().findByText("Assinatura não encontrada.")).toBeInTheDocument();
    expect(screen.queryByText(RETRY_DONE)).not.toBeInTheDocument();
  });

  it("asks before cancelling a paid-up subscription, then cancels it", async () => {
    let reads = 0;
    const api = stubSubscriptions({
      [LIST]: () => {
        reads += 1;
        return jsonResponse([buildOpsSubscription({ cancel_at_period_end: reads > 1 })]);
      },
      [CANCEL]: empty(204),
    });
    await renderOps(PAGE);
    await screen.findByRole("article", { name: "Assinatura 11" });

    fireEvent.click(within(card(11)).getByRole("button", { name: "Cancelar assinatura" }));
    const dialog = screen.getByRole("dialog", { name: "Cancelar a assinatura 11?" });
    expect(dialog).toHaveTextContent(
      `Membro Demo mantém o acesso até ${formatDateTime("2026-12-01T12:00:00Z")} e a assinatura não é renovada.`,
    );
    fireEvent.click(within(dialog).getByRole("button", { name: "Voltar" }));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(api.callsTo(CANCEL)).toHaveLength(0);

    fireEvent.click(within(card(11)).getByRole("button", { name: "Cancelar assinatura" }));
    fireEvent.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Cancelar assinatura" }));

    expect(await screen.findByText(CANCEL_DONE)).toBeInTheDocument();
    expect(api.callsTo(CANCEL)).toHaveLength(1);
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    await waitFor(() => expect(within(card(11)).queryByRole("button")).not.toBeInTheDocument());
    expect(card(11)).toHaveTextContent("Cancelada: termina em");
  });

  it("says a subscription not paid up ends at once, and shows a refusal", async () => {
    stubSubscriptions({
      [LIST]: listOf(buildPastDueSubscription()),
      [CANCEL]: () => jsonResponse({ messages: ["Esta assinatura já foi cancelada."] }, 422),
    });
    await renderOps(PAGE);
    await screen.findByRole("article", { name: "Assinatura 11" });

    fireEvent.click(within(card(11)).getByRole("button", { name: "Cancelar assinatura" }));
    const dialog = screen.getByRole("dialog", { name: "Cancelar a assinatura 11?" });
    expect(dialog).toHaveTextContent("A assinatura de Membro Demo termina agora e as cobranças em aberto são canceladas.");
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancelar assinatura" }));

    expect(await notifications().findByText("Esta assinatura já foi cancelada.")).toBeInTheDocument();
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(screen.queryByText(CANCEL_DONE)).not.toBeInTheDocument();
  });

  it("lets viewers read but not act", async () => {
    stubSubscriptions({ [LIST]: listOf(buildPastDueSubscription()) }, VIEWER);
    await renderOps(PAGE);
    await screen.findByRole("article", { name: "Assinatura 11" });

    expect(within(card(11)).queryByRole("button")).not.toBeInTheDocument();
    expect(screen.getByRole("note")).toHaveTextContent("cobrar assinaturas");
  });

  it("asks for a station first, then lists the chosen one's, the station in the address", async () => {
    const api = stubSubscriptions({ [LIST]: listOf(buildOpsSubscription()) });
    const { page } = await renderOps("/ops/assinaturas");

    expect(await screen.findByText("Escolha uma estação para ver as assinaturas.")).toBeInTheDocument();
    expect(api.callsTo(LIST)).toHaveLength(0);
    const select = screen.getByRole("combobox", { name: "Estação" });
    await within(select).findByRole("option", { name: "Clube Saúde" });
    fireEvent.change(select, { target: { value: "1" } });

    expect(await screen.findByRole("article", { name: "Assinatura 11" })).toBeInTheDocument();
    expect(page.location.search).toBe("?station_id=1");
  });

  it("filters by member id, refuses what is not one, and clears the filter", async () => {
    const api = stubSubscriptions({
      [LIST]: listOf(buildOpsSubscription(), buildOpsSubscription({ id: 12, user_id: 8, user_name: "Maria Silva" })),
      [OF_MEMBER]: listOf(buildOpsSubscription()),
    });
    const { page } = await renderOps(PAGE);
    await screen.findByRole("article", { name: "Assinatura 12" });

    const member = screen.getByLabelText("ID do membro");
    fireEvent.change(member, { target: { value: "sete" } });
    fireEvent.click(screen.getByRole("button", { name: "Filtrar" }));
    expect(screen.getByText(MEMBER_ID_INVALID)).toBeInTheDocument();
    expect(page.location.search).toBe("?station_id=1");

    fireEvent.change(member, { target: { value: " 7 " } });
    fireEvent.click(screen.getByRole("button", { name: "Filtrar" }));
    await waitFor(() => expect(screen.queryByRole("article", { name: "Assinatura 12" })).not.toBeInTheDocument());
    await screen.findByRole("article", { name: "Assinatura 11" });
    expect(page.location.search).toBe("?station_id=1&user_id=7");
    expect(api.callsTo(OF_MEMBER)).toHaveLength(1);
    expect(screen.getByLabelText("ID do membro")).toHaveValue("7");
    expect(screen.queryByText(MEMBER_ID_INVALID)).not.toBeInTheDocument();
    // One member's subscriptions open their periods.
    expect(within(card(11)).getByText("Períodos (1)").closest("details")).toHaveAttribute("open");

    fireEvent.click(screen.getByRole("button", { name: "Limpar" }));
    expect(await screen.findByRole("article", { name: "Assinatura 12" })).toBeInTheDocument();
    expect(page.location.search).toBe("?station_id=1");
    expect(screen.getByLabelText("ID do membro")).toHaveValue("");
  });

  it("uses a one-station grant's station without asking", async () => {
    const api = stubSubscriptions(
      { [OF_MEMBER]: listOf() },
      { station: { id: 1, name: "Clube Filia Demo" } },
    );
    await renderOps("/ops/assinaturas?station_id=2&user_id=7");

    expect(await screen.findByText("Nenhuma assinatura deste membro nesta estação.")).toBeInTheDocument();
    expect(screen.queryByRole("combobox", { name: "Estação" })).not.toBeInTheDocument();
    expect(api.callsTo(OPS_STATIONS)).toHaveLength(0);
  });

  it("says when the station has no subscription", async () => {
    stubSubscriptions({ [LIST]: listOf() });
    await renderOps(PAGE);

    expect(await screen.findByText("Nenhuma assinatura nesta estação.")).toBeInTheDocument();
  });

  it("shows a loading state, then an error with a retry", async () => {
    let calls = 0;
    stubSubscriptions({
      [LIST]: () => {
        calls += 1;
        return calls === 1
          ? jsonResponse({ error: "Estação não encontrada." }, 404)
          : jsonResponse([buildOpsSubscription({ periods: [buildOpsSubscriptionPeriod({ tries: [buildOpsSubscriptionTry()] })] })]);
      },
    });
    await renderOps(PAGE);

    expect(screen.getByRole("status", { name: "Carregando assinaturas" })).toBeInTheDocument();
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("Não foi possível carregar as assinaturas.Estação não encontrada.");
    fireEvent.click(within(alert).getByRole("button", { name: "Tentar novamente" }));

    expect(await screen.findByRole("article", { name: "Assinatura 11" })).toBeInTheDocument();
  });
});

import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { TOP_UPS_TITLE } from "@/features/staff/components/topups-page";
import { ACTION_DONE } from "@/features/staff/topup-labels";
import {
  buildOpsStation,
  buildOpsTopUp,
  OPS_STATIONS,
  renderOps,
  stubOps,
  VIEWER,
} from "@/features/staff/testing/ops-fixtures";
import { formatDateTime } from "@/lib/dates";
import { jsonResponse } from "@/testing/fixtures";
import type { ApiHandler } from "@/testing/stub-api";
import type { OpsMe } from "@/types/api";

const LIST = "GET /api/ops/stations/1/topups";
const PAGE = "/ops/recargas?station_id=1";
const CONFIRM = "POST /api/ops/topups/51/confirm";
const REJECT = "POST /api/ops/topups/51/reject";
const REFUND = "POST /api/ops/topups/52/refund";

const stations = () => jsonResponse([buildOpsStation(), buildOpsStation({ id: 2, name: "Clube Saúde", subdomain: "saude" })]);
const notifications = () => within(screen.getByRole("region", { name: "Notificações" }));

function stubTopUps(handlers: Record<string, ApiHandler>, me: Partial<OpsMe> = {}) {
  return stubOps({ [OPS_STATIONS]: stations, ...handlers }, me);
}

const table = () => screen.findByRole("table", { name: "Recargas da estação" });
const rowOf = async (id: number) => {
  const rows = within(await table()).getAllByRole("row").slice(1);
  const row = rows.find((candidate) => within(candidate).queryAllByRole("cell")[0]?.textContent === String(id));
  if (!row) throw new Error(`no row for top-up ${id}`);
  return row;
};

const CREDITED_CARD = buildOpsTopUp({
  id: 52,
  method: "card",
  status: "credited",
  amount_cents: 5000,
  points: 50,
  gateway_charge_id: "sbx_ch_1",
  paid_at: "2026-11-28T16:00:00Z",
  credited_at: "2026-11-28T16:00:01Z",
  expires_at: null,
});

describe("top-ups console", () => {
  it("lists the station's top-ups with member, method, amount, status, dates and charge", async () => {
    stubTopUps({ [LIST]: () => jsonResponse([buildOpsTopUp(), CREDITED_CARD]) });
    await renderOps(PAGE);

    expect(await screen.findByRole("heading", { level: 1, name: TOP_UPS_TITLE })).toBeInTheDocument();
    const transfer = await rowOf(51);
    expect(transfer).toHaveTextContent("Membro Demo (ID 7)membro@demo.filia.com.br");
    expect(transfer).toHaveTextContent("Transferência");
    expect(transfer).toHaveTextContent("R$ 150,50");
    expect(within(transfer).getByText("Pendente")).toHaveClass("ops-badge--running");
    expect(transfer).toHaveTextContent(`Expira em ${formatDateTime("2026-12-01T15:00:00Z")}`);

    const card = await rowOf(52);
    expect(card).toHaveTextContent("Cartão");
    expect(within(card).getByText("Creditada")).toHaveClass("ops-badge--succeeded");
    expect(card).toHaveTextContent("sbx_ch_1");
    expect(card).toHaveTextContent(`Creditado em ${formatDateTime("2026-11-28T16:00:01Z")}`);
    expect(screen.getByText("2 recargas")).toBeInTheDocument();
  });

  it("offers confirm and reject on a pending transfer, refund on a credited card, nothing on the rest", async () => {
    stubTopUps({
      [LIST]: () =>
        jsonResponse([
          buildOpsTopUp(),
          CREDITED_CARD,
          buildOpsTopUp({ id: 53, method: "pix", status: "pending" }),
          buildOpsTopUp({ id: 54, method: "pix", status: "review" }),
          buildOpsTopUp({ id: 55, method: "transfer", status: "credited" }),
          buildOpsTopUp({ id: 56, method: "transfer", status: "expired" }),
          buildOpsTopUp({ id: 57, method: "pix", status: "expired" }),
        ]),
    });
    await renderOps(PAGE);

    const buttons = async (id: number) => within(await rowOf(id)).queryAllByRole("button").map((button) => button.textContent);
    expect(await buttons(51)).toEqual(["Confirmar", "Recusar"]);
    expect(await buttons(52)).toEqual(["Estornar"]);
    expect(await buttons(53)).toEqual([]);
    expect(await buttons(54)).toEqual(["Confirmar", "Recusar"]);
    expect(await buttons(55)).toEqual([]);
    // A transfer paid late may still be confirmed; an expired PIX has nothing to decide.
    expect(await buttons(56)).toEqual(["Confirmar"]);
    expect(await buttons(57)).toEqual([]);
  });

  it("says whether the provider took a rejected or refunded charge's refund", async () => {
    stubTopUps({
      [LIST]: () =>
        jsonResponse([
          { ...CREDITED_CARD, status: "refunded", refund_sent_at: "2026-11-28T17:00:00Z" },
          { ...CREDITED_CARD, id: 58, status: "rejected" },
        ]),
    });
    await renderOps(PAGE);

    expect(await rowOf(52)).toHaveTextContent(`Estorno enviado em ${formatDateTime("2026-11-28T17:00:00Z")}`);
    expect(await rowOf(58)).toHaveTextContent("Estorno pendente no meio de pagamento (nova tentativa automática)");
  });

  it("confirms after the confirmation step, says so, and reads the list again", async () => {
    let confirmed = false;
    const api = stubTopUps({
      [LIST]: () => jsonResponse([confirmed ? buildOpsTopUp({ status: "credited", credited_at: "2026-11-29T10:00:00Z" }) : buildOpsTopUp()]),
      [CONFIRM]: () => {
        confirmed = true;
        return jsonResponse(buildOpsTopUp({ status: "credited" }));
      },
    });
    await renderOps(PAGE);

    fireEvent.click(within(await rowOf(51)).getByRole("button", { name: "Confirmar a recarga 51" }));
    const dialog = screen.getByRole("dialog", { name: "Confirmar a recarga 51?" });
    expect(dialog).toHaveTextContent("Transferência de R$ 150,50 de Membro Demo.");
    expect(dialog).toHaveTextContent("O valor é creditado agora no saldo de Membro Demo, que recebe um e-mail.");
    expect(api.callsTo(CONFIRM)).toHaveLength(0);

    fireEvent.click(within(dialog).getByRole("button", { name: "Confirmar" }));

    expect(await screen.findByText(ACTION_DONE.confirm)).toBeInTheDocument();
    expect(api.callsTo(CONFIRM)).toHaveLength(1);
    await waitFor(async () => expect(within(await rowOf(51)).getByText("Creditada")).toBeInTheDocument());
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  it("sends nothing when the confirmation step is left with 'Voltar'", async () => {
    const api = stubTopUps({ [LIST]: () => jsonResponse([buildOpsTopUp()]) });
    await renderOps(PAGE);

    fireEvent.click(within(await rowOf(51)).getByRole("button", { name: "Recusar a recarga 51" }));
    const dialog = screen.getByRole("dialog", { name: "Recusar a recarga 51?" });
    expect(dialog).toHaveTextContent("O pedido de Membro Demo é encerrado e nada é creditado.");
    fireEvent.click(within(dialog).getByRole("button", { name: "Voltar" }));

    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(api.callsTo(REJECT)).toHaveLength(0);
  });

  it("refunds a credited card top-up and says what happens to what was spent", async () => {
    const api = stubTopUps({
      [LIST]: () => jsonResponse([CREDITED_CARD]),
      [REFUND]: () => jsonResponse({ ...CREDITED_CARD, status: "refunded" }),
    });
    await renderOps(PAGE);

    fireEvent.click(within(await rowOf(52)).getByRole("button", { name: "Estornar a recarga 52" }));
    const dialog = screen.getByRole("dialog", { name: "Estornar a recarga 52?" });
    expect(dialog).toHaveTextContent("o que já foi gasto vira um débito");
    fireEvent.click(within(dialog).getByRole("button", { name: "Estornar" }));

    expect(await screen.findByText(ACTION_DONE.refund)).toBeInTheDocument();
    expect(api.callsTo(REFUND)).toHaveLength(1);
  });

  it("shows the server's refusal when the top-up was already decided (409)", async () => {
    stubTopUps({
      [LIST]: () => jsonResponse([buildOpsTopUp()]),
      [CONFIRM]: () => jsonResponse({ error: "Esta recarga não pode mais ser confirmada." }, 409),
    });
    await renderOps(PAGE);

    fireEvent.click(within(await rowOf(51)).getByRole("button", { name: "Confirmar a recarga 51" }));
    fireEvent.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Confirmar" }));

    expect(await notifications().findByText("Esta recarga não pode mais ser confirmada.")).toBeInTheDocument();
  });

  it("filters by status and method through the address", async () => {
    const api = stubTopUps({
      [LIST]: () => jsonResponse([buildOpsTopUp()]),
      [`${LIST}?status=pending`]: () => jsonResponse([buildOpsTopUp()]),
      [`${LIST}?status=pending&method=transfer`]: () => jsonResponse([]),
    });
    const { page } = await renderOps(PAGE);
    await table();

    fireEvent.change(screen.getByLabelText("Situação"), { target: { value: "pending" } });
    await waitFor(() => expect(api.callsTo(`${LIST}?status=pending`)).toHaveLength(1));
    fireEvent.change(screen.getByLabelText("Forma de pagamento"), { target: { value: "transfer" } });

    expect(await screen.findByText("Nenhuma recarga com estes filtros nesta estação.")).toBeInTheDocument();
    expect(page.location.search).toBe("?station_id=1&status=pending&method=transfer");
  });

  it("asks for a station first when the grant covers every station", async () => {
    const api = stubTopUps({});
    await renderOps("/ops/recargas");

    expect(await screen.findByText("Escolha uma estação para ver as recargas.")).toBeInTheDocument();
    expect(api.calls.some((call) => call.url.includes("/topups"))).toBe(false);
  });

  it("uses a one-station grant's station without asking", async () => {
    stubTopUps({ [LIST]: () => jsonResponse([]) }, { station: { id: 1, name: "Clube Filia Demo" } });
    await renderOps("/ops/recargas");

    expect(await screen.findByText("Nenhuma recarga nesta estação.")).toBeInTheDocument();
    expect(screen.queryByLabelText("Estação")).not.toBeInTheDocument();
  });

  it("shows viewers the list without any decision", async () => {
    stubTopUps({ [LIST]: () => jsonResponse([buildOpsTopUp(), CREDITED_CARD]) }, VIEWER);
    await renderOps(PAGE);

    await rowOf(51);
    expect(within(await table()).queryAllByRole("button")).toHaveLength(0);
  });

  it("says while it loads, and offers to try again when the list cannot be read", async () => {
    let fail = true;
    stubTopUps({
      [LIST]: () => (fail ? jsonResponse({ error: "Erro interno no servidor" }, 500) : jsonResponse([buildOpsTopUp()])),
    });
    await renderOps(PAGE);
    expect(screen.getByRole("status", { name: "Carregando recargas" })).toBeInTheDocument();

    const alert = await screen.findByRole("alert", {}, { timeout: 5000 });
    expect(alert).toHaveTextContent("Não foi possível carregar as recargas.");
    fail = false;
    fireEvent.click(within(alert).getByRole("button", { name: "Tentar novamente" }));

    expect(await table()).toBeInTheDocument();
  });
});

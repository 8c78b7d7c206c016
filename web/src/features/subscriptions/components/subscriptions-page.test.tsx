import { fireEvent, screen, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import {
  ACCOUNT,
  CHARGES,
  buildCharge,
  cancelActionCall,
} from "@/features/subscriptions/testing/subscription-fixtures";
import { buildWalletBalance, jsonResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { stubApi, type ApiHandler } from "@/testing/stub-api";

const BALANCE = "GET /api/users-points/1";

const BOOK_CLUB = { actionId: 9, subscription_id: 41, plan_id: null, name: "Clube do livro" };

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  signIn();
});

function stubCharges(charges: unknown, handlers: Record<string, ApiHandler> = {}) {
  return stubApi({
    [BALANCE]: () => jsonResponse(buildWalletBalance()),
    [CHARGES]: () => jsonResponse(charges),
    [ACCOUNT]: () => jsonResponse({ id: 1, subscription: null }),
    ...handlers,
  });
}

const toggle = (name: string) => screen.getByRole("button", { name: new RegExp(`^${name}`) });

describe("'Minhas assinaturas'", () => {
  it("shows placeholders, then one group per activity or plan, the only one opened with its 'Cobranças'", async () => {
    stubCharges([buildCharge({ ...BOOK_CLUB, id: 7, action_subscription: { description: "Um livro por mês" } })]);
    renderApp({ path: "/homepage/assinaturas" });
    expect(await screen.findByRole("status", { name: "Carregando assinaturas" })).toHaveAttribute("aria-busy", "true");

    const group = await screen.findByRole("button", { name: /^Clube do livro/ });
    expect(group).toHaveAttribute("aria-expanded", "true");
    expect(group).toHaveTextContent("Um livro por mês");
    const table = screen.getByRole("table", { name: "Cobranças" });
    expect(within(table).getAllByRole("columnheader").map((cell) => cell.textContent)).toEqual([
      "Atividade",
      "Vigência",
      "Valor",
      "Status pagamento",
      "Recorrência",
    ]);
    expect(within(table).getAllByRole("cell").map((cell) => cell.textContent)).toEqual([
      "Clube do livro",
      "29/11/2026 a 29/12/2026",
      "R$ 29,90",
      "Pago",
      "Mensal",
    ]);
    expect(screen.queryByRole("link", { name: "Novo cartão" })).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Cancelar assinatura de Clube do livro" })).toBeEnabled();
  });

  it("keeps several groups closed except the one the address names, and opens them on demand", async () => {
    stubCharges([buildCharge({ ...BOOK_CLUB }), buildCharge({ id: 2 })]);
    renderApp({ path: "/homepage/assinaturas/9" });

    expect(await screen.findByRole("button", { name: /^Clube do livro/ })).toHaveAttribute("aria-expanded", "true");
    const plan = toggle("Essencial");
    expect(plan).toHaveAttribute("aria-expanded", "false");
    expect(screen.getAllByRole("table")).toHaveLength(1);
    fireEvent.click(plan);
    expect(plan).toHaveAttribute("aria-expanded", "true");
    expect(screen.getAllByRole("table")).toHaveLength(2);
  });

  it("offers 'Novo cartão' for an unpaid charge, leading to the card form of its subscription", async () => {
    stubCharges([buildCharge({ ...BOOK_CLUB, paid: false, status: "Recusado" })]);
    renderApp({ path: "/homepage/assinaturas" });
    expect(await screen.findByRole("link", { name: "Novo cartão" })).toHaveAttribute(
      "href",
      "/homepage/cartao-assinatura?assinatura=41",
    );
  });

  it("marks a cancelled group 'Cancelada' with its cancel button disabled", async () => {
    stubCharges([buildCharge({ ...BOOK_CLUB, cancelled: true, paid: false, status: "Cancelado" })]);
    renderApp({ path: "/homepage/assinaturas" });
    expect(await screen.findByText("Cancelada")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Cancelar assinatura de Clube do livro" })).toBeDisabled();
    expect(screen.queryByRole("link", { name: "Novo cartão" })).not.toBeInTheDocument();
  });

  it("shows a period whose charge the bank took back as the API names it, not 'Pago'", async () => {
    stubCharges([
      buildCharge({
        ...BOOK_CLUB,
        id: 8,
        cancelled: true,
        status: "Contestado",
        taken_back: "chargedback",
        paidFormatted: "R$ 0,00",
      }),
      buildCharge({ id: 3, cancelled: true, status: "Estornado", taken_back: "refunded", paidFormatted: "R$ 0,00" }),
    ]);
    renderApp({ path: "/homepage/assinaturas/9" });
    const table = await screen.findByRole("table", { name: "Cobranças" });
    const status = within(table).getByRole("cell", { name: "Contestado" });
    expect(status).toHaveClass("charges-table__taken-back");
    expect(within(table).queryByRole("cell", { name: "Pago" })).not.toBeInTheDocument();
    fireEvent.click(toggle("Essencial"));
    const plan = screen.getAllByRole("table", { name: "Cobranças" })[1] as HTMLElement;
    expect(within(plan).getByRole("cell", { name: "Estornado" })).toHaveClass("charges-table__taken-back");
    // Taken back is not unpaid: no 'Novo cartão' for it.
    expect(screen.queryByRole("link", { name: "Novo cartão" })).not.toBeInTheDocument();
  });

  it("says when there are none", async () => {
    stubCharges([]);
    renderApp({ path: "/homepage/assinaturas" });
    expect(await screen.findByText("Não há assinaturas")).toBeInTheDocument();
  });

  it("marks cancelled a subscription whose charges the API reads cancelled, its cancel button disabled", async () => {
    // Cancelled while paid up: the charge stays paid, and no more will come.
    stubCharges([buildCharge({ ...BOOK_CLUB, cancelled: true }), buildCharge({ id: 2, cancelled: true })]);
    renderApp({ path: "/homepage/assinaturas" });
    expect(await screen.findAllByText("Cancelada")).toHaveLength(2);
    expect(screen.getByRole("button", { name: "Cancelar assinatura de Clube do livro" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Cancelar assinatura de Essencial" })).toBeDisabled();
  });

  it("cancels a product subscription after confirming, and says so", async () => {
    let cancelled = false;
    const api = stubCharges([], {
      [CHARGES]: () => jsonResponse([buildCharge({ ...BOOK_CLUB, cancelled })]),
      [cancelActionCall(41)]: () => {
        cancelled = true;
        return jsonResponse({ id: 41, cancelled: true });
      },
    });
    renderApp({ path: "/homepage/assinaturas" });
    fireEvent.click(await screen.findByRole("button", { name: "Cancelar assinatura de Clube do livro" }));
    fireEvent.click(within(screen.getByRole("dialog", { name: "Cancelar assinatura" })).getByRole("button", { name: "Confirmar cancelamento" }));

    expect(await screen.findByText("Cancelamento de assinatura realizado com sucesso")).toBeInTheDocument();
    expect(api.bodySentTo(cancelActionCall(41))).toEqual({ action_id: 9 });
    expect(await screen.findByText("Cancelada")).toBeInTheDocument();
  });

  it("says 'Erro ao cancelar assinatura' when the cancellation fails", async () => {
    stubCharges([buildCharge({ ...BOOK_CLUB })], { [cancelActionCall(41)]: () => jsonResponse({ error: "x" }, 404) });
    renderApp({ path: "/homepage/assinaturas" });
    fireEvent.click(await screen.findByRole("button", { name: "Cancelar assinatura de Clube do livro" }));
    fireEvent.click(screen.getByRole("button", { name: "Confirmar cancelamento" }));
    expect(await screen.findByText("Erro ao cancelar assinatura")).toBeInTheDocument();
  });

  it("cancels a plan with a reason", async () => {
    const api = stubCharges([buildCharge()], { "POST /api/subscriptions/cancel": () => jsonResponse({}) });
    renderApp({ path: "/homepage/assinaturas" });
    fireEvent.click(await screen.findByRole("button", { name: "Cancelar assinatura de Essencial" }));
    fireEvent.click(within(screen.getByRole("dialog", { name: "Cancelar plano" })).getByRole("button", { name: "Confirmar cancelamento" }));
    expect(await screen.findByText("Cancelamento de assinatura realizado com sucesso")).toBeInTheDocument();
    expect(api.bodySentTo("POST /api/subscriptions/cancel")).toEqual({ cancelReason: "Prefiro não mencionar" });
  });
});

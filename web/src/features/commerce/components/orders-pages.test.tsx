import { fireEvent, screen, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { BALANCE, ORDERS, buildOrder, orderCall } from "@/features/commerce/testing/commerce-fixtures";
import { buildWalletBalance, jsonResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { stubApi, type ApiHandler } from "@/testing/stub-api";

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  signIn();
});

function stubOrders(handlers: Record<string, ApiHandler>) {
  return stubApi({ [BALANCE]: () => jsonResponse(buildWalletBalance()), ...handlers });
}

describe("orders page", () => {
  it("shows placeholders while loading, then one card per order with its long-form date", async () => {
    stubOrders({
      [ORDERS]: () =>
        jsonResponse([buildOrder(), buildOrder({ id: 76, code: "PED-000076", createdAt: "2026-10-02T15:00:00Z", status: "Pagamento expirado" })]),
    });
    const { page } = renderApp({ path: "/homepage/pedidos" });
    expect(await screen.findByRole("list", { name: "Carregando pedidos" })).toHaveAttribute("aria-busy", "true");

    const first = await screen.findByRole("link", { name: /PED-000077/ });
    expect(first).toHaveTextContent("21 de novembro de 2026");
    expect(first).toHaveTextContent("Pagamento confirmado");
    expect(screen.getByRole("link", { name: /PED-000076/ })).toHaveTextContent("Pagamento expirado");
    expect(screen.getByRole("heading", { level: 1, name: "Meus pedidos" })).toBeInTheDocument();

    stubOrders({ [orderCall(77)]: () => jsonResponse([buildOrder()]) });
    fireEvent.click(first);
    expect(page.location.pathname).toBe("/homepage/pedidos/77");
  });

  it("says when there are no orders", async () => {
    stubOrders({ [ORDERS]: () => jsonResponse([]) });
    renderApp({ path: "/homepage/pedidos" });
    expect(await screen.findByText("Você ainda não fez pedidos.")).toBeInTheDocument();
  });

  it("offers to try again when the orders cannot be read", async () => {
    stubOrders({ [ORDERS]: () => jsonResponse({ error: "Você não possui autorização para acessar esta página." }, 403) });
    renderApp({ path: "/homepage/pedidos" });
    expect(await screen.findByText("Não foi possível carregar os seus pedidos.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Tentar novamente" })).toBeInTheDocument();
  });
});

describe("order page", () => {
  it("shows the order sheet with product, quantity, delivery place and date, and prints", async () => {
    stubOrders({ [orderCall(77)]: () => jsonResponse([buildOrder()]) });
    const print = vi.fn();
    vi.stubGlobal("print", print);
    renderApp({ path: "/homepage/pedidos/77" });

    expect(await screen.findByRole("heading", { level: 1, name: "Comprovante do pedido" })).toBeInTheDocument();
    const row = within(screen.getByRole("table")).getAllByRole("row")[1] as HTMLElement;
    expect(within(row).getAllByRole("cell").map((cell) => cell.textContent)).toEqual([
      "Camiseta do clube",
      "2",
      "Entrega em casa",
      "21/11/2026",
    ]);
    expect(screen.getByText(/Total:/)).toHaveTextContent("R$ 115,00");
    expect(screen.queryByRole("link", { name: "Meus vouchers" })).not.toBeInTheDocument();

    fireEvent.click(screen.getByRole("button", { name: "Imprimir" }));
    expect(print).toHaveBeenCalledOnce();
  });

  it("shows the purchase receipt of a type 3 activity and 'Meus vouchers' once paid with vouchers made", async () => {
    stubOrders({
      [orderCall(77)]: () =>
        jsonResponse([
          buildOrder({
            create_vouchers: true,
            action: { id: 20, name: "Cupom do cinema", type_id: 3, sell_vouchers: true, familiarVoucher: false },
          }),
        ]),
    });
    renderApp({ path: "/homepage/pedidos/77" });

    expect(await screen.findByRole("heading", { level: 1, name: "Comprovantes de compra" })).toBeInTheDocument();
    expect(screen.queryByRole("table")).not.toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Meus vouchers" })).toHaveAttribute("href", "/homepage/vouchers");
  });

  it("shows the refunded amount of a partly refunded order", async () => {
    stubOrders({
      [orderCall(77)]: () =>
        jsonResponse([buildOrder({ status: "Parcialmente estornada", status_code: "partially_refunded", refunded_percentage: 0.5 })]),
    });
    renderApp({ path: "/homepage/pedidos/77" });
    expect(await screen.findByText(/Valor estornado/)).toHaveTextContent("R$ 57,50");
  });

  it("shows the server's refusal for an order that is not the member's", async () => {
    stubOrders({ [orderCall(80)]: () => jsonResponse({ error: "Pedido não encontrado" }, 404) });
    renderApp({ path: "/homepage/pedidos/80" });
    expect(await screen.findByText("Pedido não encontrado")).toBeInTheDocument();
  });
});

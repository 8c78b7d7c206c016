import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { BALANCE, PURCHASES, buildCouponPurchase, buildOrder, orderCall } from "@/features/commerce/testing/commerce-fixtures";
import { buildWalletBalance, jsonResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { stubApi, type ApiHandler } from "@/testing/stub-api";

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  signIn();
});

function stubPurchases(handlers: Record<string, ApiHandler>) {
  return stubApi({ [BALANCE]: () => jsonResponse(buildWalletBalance()), ...handlers });
}

describe("coupon purchases page", () => {
  it("shows skeletons while loading, then the purchases; each opens its proof", async () => {
    stubPurchases({
      [PURCHASES]: () =>
        jsonResponse([
          buildCouponPurchase({ quantity: 2, price: 5000 }),
          buildCouponPurchase({ id: 10, cupom: { ...buildCouponPurchase().cupom, action: { ...buildCouponPurchase().cupom.action, name: "Show de fim de ano" } } }),
        ]),
      [orderCall(77)]: () => jsonResponse([buildOrder()]),
    });
    const { page } = renderApp({ path: "/homepage/minhas-compras" });
    expect(await screen.findByRole("list", { name: "Carregando compras" })).toHaveAttribute("aria-busy", "true");

    const cinema = await screen.findByRole("button", { name: /Cupom do cinema/ });
    expect(cinema).toHaveTextContent("21 de novembro de 2026");
    expect(cinema).toHaveTextContent("Quantidade: 2 · R$ 50,00");
    expect(screen.getByRole("button", { name: /Show de fim de ano/ })).toBeInTheDocument();

    fireEvent.click(cinema);
    const proof = await screen.findByRole("dialog", { name: "Comprovante de compra" });
    expect(proof).toHaveTextContent("Cupom do cinema");
    expect(proof).toHaveTextContent("Maria Silva");
    expect(proof).toHaveTextContent("PED-000077");
    expect(proof).toHaveTextContent("R$ 50,00");
    expect(within(proof).getByRole("button", { name: "Imprimir" })).toBeInTheDocument();

    fireEvent.click(within(proof).getByRole("link", { name: "Ver pedido" }));
    await waitFor(() => expect(page.location.pathname).toBe("/homepage/pedidos/77"));
  });

  it("says when there are no purchases", async () => {
    stubPurchases({ [PURCHASES]: () => jsonResponse([]) });
    renderApp({ path: "/homepage/minhas-compras" });
    expect(await screen.findByText("Você ainda não possui compras feitas.")).toBeInTheDocument();
    expect(screen.getByRole("heading", { level: 1, name: "Minhas compras" })).toBeInTheDocument();
  });

  it("offers to try again when the purchases cannot be read", async () => {
    stubPurchases({ [PURCHASES]: () => jsonResponse({ error: "Você não possui autorização para acessar esta página." }, 403) });
    renderApp({ path: "/homepage/minhas-compras" });
    expect(await screen.findByText("Não foi possível carregar as suas compras.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Tentar novamente" })).toBeInTheDocument();
  });
});

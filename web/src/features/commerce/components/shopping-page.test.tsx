import { act, fireEvent, screen, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import {
  ADD_TO_CART,
  BALANCE,
  buildCartLine,
  buildProduct,
  productsCall,
} from "@/features/commerce/testing/commerce-fixtures";
import { buildWalletBalance, jsonResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { stubApi, type ApiHandler } from "@/testing/stub-api";

const NOTICE = "Há compras pendentes no seu Carrinho. Por favor, confira e finalize o pagamento";

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  signIn();
});

function stubShop(handlers: Record<string, ApiHandler> = {}) {
  return stubApi({
    [BALANCE]: () => jsonResponse(buildWalletBalance()),
    [productsCall(20)]: () =>
      jsonResponse([
        buildProduct(),
        buildProduct({ id: 4, name: "Boné", value: 3000, discount_value: 500, limit: 0 }),
      ]),
    ...handlers,
  });
}

describe("shopping page", () => {
  it("lists the activity's products with their prices; a product the member cannot have more of is sold out", async () => {
    stubShop();
    renderApp({ path: "/homepage/shopping/20" });
    expect(await screen.findByText("Carregando produtos…")).toBeInTheDocument();

    expect(await screen.findByRole("heading", { level: 1, name: "Kit do associado" })).toBeInTheDocument();
    const shirt = screen.getByRole("heading", { name: "Camiseta do clube" }).closest("li") as HTMLElement;
    expect(shirt).toHaveTextContent("R$ 50,00");
    expect(within(shirt).getAllByRole("option")).toHaveLength(5);
    const cap = screen.getByRole("heading", { name: "Boné" }).closest("li") as HTMLElement;
    expect(cap).toHaveTextContent("R$ 30,00 R$ 25,00");
    expect(cap).toHaveTextContent("Esgotado");
    expect(within(cap).queryByRole("button")).not.toBeInTheDocument();
  });

  it("says when the activity sells nothing", async () => {
    stubShop({ [productsCall(20)]: () => jsonResponse([]) });
    renderApp({ path: "/homepage/shopping/20" });
    expect(await screen.findByText("Não há produtos disponíveis nesta atividade.")).toBeInTheDocument();
  });

  it("offers to try again when the products cannot be read", async () => {
    let fail = true;
    stubShop({
      [productsCall(20)]: () => (fail ? jsonResponse({ error: "Acesso negado" }, 403) : jsonResponse([buildProduct()])),
    });
    renderApp({ path: "/homepage/shopping/20" });

    expect(await screen.findByText("Não foi possível carregar os produtos.")).toBeInTheDocument();
    fail = false;
    fireEvent.click(screen.getByRole("button", { name: "Tentar novamente" }));
    expect(await screen.findByRole("heading", { name: "Camiseta do clube" })).toBeInTheDocument();
  });

  it("adds the chosen quantity and shows the pending-purchases notice for 10 seconds", async () => {
    const api = stubShop({ [ADD_TO_CART]: () => jsonResponse([buildCartLine({ quantity: 3 })]) });
    renderApp({ path: "/homepage/shopping/20" });
    const shirt = (await screen.findByRole("heading", { name: "Camiseta do clube" })).closest("li") as HTMLElement;

    vi.useFakeTimers({ shouldAdvanceTime: true });
    fireEvent.change(within(shirt).getByLabelText("Quantidade"), { target: { value: "3" } });
    fireEvent.click(within(shirt).getByRole("button", { name: "Adicionar Camiseta do clube ao carrinho" }));

    expect(await screen.findByText(NOTICE, { exact: false })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Ir para o carrinho" })).toHaveAttribute("href", "/homepage/carrinho");
    expect(api.bodiesOf(ADD_TO_CART)).toEqual([{ products: [{ id: 3, quantity: 3 }] }]);

    await act(async () => {
      await vi.advanceTimersByTimeAsync(9_000);
    });
    expect(screen.getByText(NOTICE, { exact: false })).toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1_500);
    });
    expect(screen.queryByText(NOTICE, { exact: false })).not.toBeInTheDocument();
  });

  it("shows the server's refusal under 'Erro' and no notice", async () => {
    stubShop({
      [ADD_TO_CART]: () =>
        jsonResponse({ messages: ['Você atingiu o limite de 10 unidade(s) de "Camiseta do clube" por participante.'] }, 422),
    });
    renderApp({ path: "/homepage/shopping/20" });
    fireEvent.click(await screen.findByRole("button", { name: "Adicionar Camiseta do clube ao carrinho" }));

    const notifications = screen.getByRole("region", { name: "Notificações" });
    expect(
      await within(notifications).findByText('Você atingiu o limite de 10 unidade(s) de "Camiseta do clube" por participante.'),
    ).toBeInTheDocument();
    expect(within(notifications).getByText("Erro")).toBeInTheDocument();
    expect(screen.queryByText(NOTICE, { exact: false })).not.toBeInTheDocument();
  });
});

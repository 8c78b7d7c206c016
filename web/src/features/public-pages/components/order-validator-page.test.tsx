import { screen } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { jsonResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { stubApi } from "@/testing/stub-api";
import type { OrderCheck } from "@/types/api";

const CODE = "PED-7Q2X";
const PATH = `/validador/pedido/${CODE}`;
const ORDER_CALL = `GET /api/validator/orders/${CODE}`;

const ORDER: OrderCheck = {
  code: CODE,
  status: "Pagamento confirmado",
  paid: true,
  refunded: false,
  member_name: "Maria Souza",
  created_at: "2026-11-24T15:30:00Z",
  lines: [{ product: "Camiseta do clube", quantity: 2 }],
  deliveries: [{ location: "Sede social", pickup: true, address: "Rua das Flores, 10, 88010400" }],
};

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
});

describe("/validador/pedido/{code}", () => {
  it("gives a visitor the 401 page without asking for the order", async () => {
    const api = stubApi();
    renderApp({ path: PATH });
    expect(await screen.findByRole("heading", { level: 1, name: "Erro 401!" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Entrar" })).toHaveAttribute("href", "/login");
    expect(api.callsTo(ORDER_CALL)).toHaveLength(0);
  });

  it("shows the partner what was bought, where it goes, and that it is paid", async () => {
    signIn();
    stubApi({ [ORDER_CALL]: () => jsonResponse(ORDER) });
    renderApp({ path: PATH });
    expect(await screen.findByRole("heading", { level: 1, name: "Conferência de pedido" })).toBeInTheDocument();
    expect(screen.getByText("Pagamento confirmado")).toBeInTheDocument();
    expect(screen.getByRole("list", { name: "Produtos" })).toHaveTextContent("2 x Camiseta do clube");
    expect(screen.getByText("Retirada: Sede social (Rua das Flores, 10, 88010400)")).toBeInTheDocument();
    expect(screen.queryByText("Este pedido não está pago: não entregue os produtos.")).not.toBeInTheDocument();
  });

  it("warns when the order is not paid", async () => {
    signIn();
    stubApi({ [ORDER_CALL]: () => jsonResponse({ ...ORDER, paid: false, status: "Aguardando pagamento" }) });
    renderApp({ path: PATH });
    expect(await screen.findByText("Este pedido não está pago: não entregue os produtos.")).toBeInTheDocument();
    expect(screen.getByText("Aguardando pagamento")).toBeInTheDocument();
  });

  it("says a wholly refunded order was refunded, with nothing left to hand over", async () => {
    signIn();
    stubApi({ [ORDER_CALL]: () => jsonResponse({ ...ORDER, paid: false, refunded: true, status: "Estornada", lines: [] }) });
    renderApp({ path: PATH });
    expect(await screen.findByText("Este pedido foi estornado: não entregue os produtos.")).toBeInTheDocument();
    expect(screen.queryByRole("list", { name: "Produtos" })).not.toBeInTheDocument();
  });

  it("gives the 401 page to an account that may not see the order", async () => {
    signIn();
    stubApi({
      [ORDER_CALL]: () => jsonResponse({ messages: ["Você não possui autorização para acessar esta página."] }, 403),
    });
    renderApp({ path: PATH });
    expect(await screen.findByRole("heading", { level: 1, name: "Erro 401!" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Voltar ao início" })).toBeInTheDocument();
  });

  it("says so when no order has that code", async () => {
    signIn();
    stubApi({ [ORDER_CALL]: () => jsonResponse({ error: "Pedido não encontrado" }, 404) });
    renderApp({ path: PATH });
    expect(await screen.findByText("Pedido não encontrado")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Tentar novamente" })).not.toBeInTheDocument();
  });

  it("is not found under another second segment", async () => {
    signIn();
    const api = stubApi();
    renderApp({ path: `/validador/outra/${CODE}` });
    expect(await screen.findByRole("heading", { level: 1, name: "Página não encontrada" })).toBeInTheDocument();
    expect(api.callsTo(ORDER_CALL)).toHaveLength(0);
  });
});

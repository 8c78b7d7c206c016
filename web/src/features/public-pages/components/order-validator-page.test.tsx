import { fireEvent, screen, waitFor } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { jsonResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { stubApi } from "@/testing/stub-api";
import type { OrderCheck } from "@/types/api";

const CODE = "PED-7Q2X";
const PATH = `/validador/pedido/${CODE}`;
const ORDER_CALL = `GET /api/validator/orders/${CODE}`;
const HANDOVER_CALL = `POST /api/validator/orders/${CODE}/lines/41/handover`;
const HANDED_OVER = { quantity: 2, by: "Joana Caixa", at: "2026-11-25T18:05:09Z" };

const ORDER: OrderCheck = {
  code: CODE,
  status: "Pagamento confirmado",
  paid: true,
  refunded: false,
  member_name: "Maria Souza",
  created_at: "2026-11-24T15:30:00Z",
  hands_over: true,
  lines: [{ id: 41, product: "Camiseta do clube", quantity: 2, vouchers: false, handed_over: null }],
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

  it("lets the partner hand a line over once, and says when and by whom", async () => {
    signIn();
    const api = stubApi({
      [ORDER_CALL]: () => jsonResponse(ORDER),
      [HANDOVER_CALL]: () => jsonResponse({ ...ORDER, lines: [{ ...ORDER.lines[0], handed_over: HANDED_OVER }] }),
    });
    renderApp({ path: PATH });
    const button = await screen.findByRole("button", { name: "Entregar" });
    expect(button).toHaveAccessibleDescription("2 x Camiseta do clube");
    fireEvent.click(button);
    expect(await screen.findByText(/^Entregue em 25\/11\/2026 \d\d:05:09 por Joana Caixa$/)).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Entregar" })).not.toBeInTheDocument();
    expect(api.callsTo(HANDOVER_CALL)).toHaveLength(1);
  });

  it("shows the refusal when another counter handed it over first, then who did", async () => {
    signIn();
    let handed = false;
    stubApi({
      [ORDER_CALL]: () =>
        jsonResponse(handed ? { ...ORDER, lines: [{ ...ORDER.lines[0], handed_over: HANDED_OVER }] } : ORDER),
      [HANDOVER_CALL]: () => {
        handed = true;
        return jsonResponse({ error: "Este item já foi entregue." }, 409);
      },
    });
    renderApp({ path: PATH });
    fireEvent.click(await screen.findByRole("button", { name: "Entregar" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Este item já foi entregue.");
    await waitFor(() => expect(screen.getByText(/^Entregue em .* por Joana Caixa$/)).toBeInTheDocument());
    expect(screen.queryByRole("button", { name: "Entregar" })).not.toBeInTheDocument();
  });

  it("offers no handover for a line handed over by its vouchers", async () => {
    signIn();
    stubApi({
      [ORDER_CALL]: () =>
        jsonResponse({
          ...ORDER,
          lines: [ORDER.lines[0], { id: 42, product: "Ingresso", quantity: 1, vouchers: true, handed_over: null }],
        }),
    });
    renderApp({ path: PATH });
    expect(await screen.findByText("Entregue pelos vouchers: valide cada um.")).toBeInTheDocument();
    expect(screen.getAllByRole("button", { name: "Entregar" })).toHaveLength(1);
  });

  it("offers the member who bought it no button", async () => {
    signIn();
    stubApi({ [ORDER_CALL]: () => jsonResponse({ ...ORDER, hands_over: false }) });
    renderApp({ path: PATH });
    expect(await screen.findByRole("list", { name: "Produtos" })).toHaveTextContent("2 x Camiseta do clube");
    expect(screen.queryByRole("button", { name: "Entregar" })).not.toBeInTheDocument();
  });

  it("offers no button on an unpaid order", async () => {
    signIn();
    stubApi({ [ORDER_CALL]: () => jsonResponse({ ...ORDER, paid: false, status: "Aguardando pagamento" }) });
    renderApp({ path: PATH });
    expect(await screen.findByText("Este pedido não está pago: não entregue os produtos.")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Entregar" })).not.toBeInTheDocument();
  });
});

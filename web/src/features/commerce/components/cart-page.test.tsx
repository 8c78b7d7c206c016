import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import {
  APPLY_COUPON,
  BALANCE,
  CARD_TOKENS,
  CART,
  CART_TOTALS,
  CONFIRM_CART,
  INSTALLMENTS,
  PLACE_ORDER,
  REMOVE_COUPON,
  SAVED_CARDS,
  UPDATE_CART,
  checkPaymentCall,
  simulatePixCall,
  buildCartLine,
  buildCouponApplied,
  buildOrder,
  buildProduct,
  buildReservation,
  buildShopAction,
  buildTotals,
  orderCall,
} from "@/features/commerce/testing/commerce-fixtures";
import { buildStation, buildWalletBalance, jsonResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { PIX_POLL_MS } from "@/features/commerce/components/cart-page";
import { CEP_LOOKUP, byCep, paulista } from "@/testing/cep-lookup";
import { DEFAULT_CONFIG, stubApi, type ApiHandler } from "@/testing/stub-api";
import type { CartLineItem, OrderTotals, StationConfig } from "@/types/api";

const CART_PATH = "/homepage/carrinho";
const PAGARME_TOKENS = "https://api.pagar.me/core/v5/tokens";
const SAVE_CARD = "Salvar este cartão para as próximas compras";
/** What fillNewCard's address and CEP send with a new card's token. */
const BILLING_ADDRESS = { cep: "01310100", street: "Avenida Paulista", street_number: "1000", city: "São Paulo", state: "SP" };
const inSeconds = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  signIn();
});

const digitalLine = () =>
  buildCartLine({
    product: buildProduct({ id: 8, name: "Ingresso digital", action: buildShopAction({ id: 21, name: "Show", digital_product: true }) }),
    quantity: 1,
  });

interface CartStubOptions {
  lines?: CartLineItem[];
  balanceCents?: number;
  totals?: Partial<OrderTotals>;
  expiresInSeconds?: number;
  handlers?: Record<string, ApiHandler>;
  /** The deployment runs the payments sandbox (GET /api/config). */
  sandbox?: boolean;
  /** The provider's browser tokeniser (GET /api/config), with Pagar.me. */
  cardTokenizer?: StationConfig["card_tokenizer"];
}

function stubCart({
  lines = [buildCartLine()],
  balanceCents = 20000,
  totals,
  expiresInSeconds = 900,
  handlers = {},
  sandbox = false,
  cardTokenizer = null,
}: CartStubOptions = {}) {
  return stubApi(
    {
      [BALANCE]: () => jsonResponse(buildWalletBalance({ points_cents: balanceCents })),
      [CART]: () => jsonResponse(lines),
      [CONFIRM_CART]: () => jsonResponse(buildReservation(inSeconds(expiresInSeconds), totals)),
      [CART_TOTALS]: () => jsonResponse(buildTotals(totals)),
      [SAVED_CARDS]: () => jsonResponse([]),
      // The CEP lookup of the billing address fillNewCard types (our API's).
      [CEP_LOOKUP]: byCep({ "01310100": paulista }),
      [REMOVE_COUPON]: () => jsonResponse(buildReservation(inSeconds(expiresInSeconds), totals).totals),
      ...handlers,
    },
    { ...DEFAULT_CONFIG, payments_sandbox: sandbox, card_tokenizer: cardTokenizer },
  );
}

const notifications = () => screen.getByRole("region", { name: "Notificações" });
const heading = (name: string, timeout?: number) => screen.findByRole("heading", { level: 1, name }, { timeout });
const click = (name: string) => fireEvent.click(screen.getByRole("button", { name }));

async function openCart() {
  const rendered = renderApp({ path: CART_PATH });
  await heading("Meu carrinho");
  await screen.findByText("Subtotal");
  return rendered;
}

/** Step 0 to step 1, then the pickup place, to the payment step. */
async function toPayment() {
  await openCart();
  click("Ir para entrega");
  await heading("Informações de entrega e retirada");
  fireEvent.change(screen.getByLabelText("Local de entrega ou retirada"), { target: { value: "32" } });
  click("Ir para pagamento");
}

describe("cart, step 0", () => {
  it("shows the empty cart and holds nothing", async () => {
    const api = stubCart({ lines: [] });
    renderApp({ path: CART_PATH });

    expect(await screen.findByText("Você ainda não possui itens no seu carrinho.")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Voltar para a página inicial" })).toHaveAttribute("href", "/homepage");
    expect(api.callsTo(CONFIRM_CART)).toHaveLength(0);
  });

  it("says so while loading, and offers to try again when the cart cannot be read", async () => {
    let fail = true;
    stubCart({
      handlers: {
        [CART]: () => (fail ? jsonResponse({ error: "Acesso negado" }, 403) : jsonResponse([buildCartLine()])),
      },
    });
    renderApp({ path: CART_PATH });
    expect(await screen.findByText("Carregando carrinho…")).toBeInTheDocument();

    expect(await screen.findByText("Não foi possível carregar o seu carrinho.")).toBeInTheDocument();
    fail = false;
    click("Tentar novamente");
    expect(await screen.findByText("Camiseta do clube")).toBeInTheDocument();
  });

  it("lists the lines with the server's totals preview, holding nothing", async () => {
    const api = stubCart({ totals: { product_items_sum_value: 10000, total_final_value: 10000, cashback_value: 500 } });
    await openCart();

    expect(screen.getByRole("heading", { name: "Camiseta do clube" })).toBeInTheDocument();
    const totals = screen.getByRole("region", { name: "Resumo do pedido" });
    expect(totals).toHaveTextContent("ProdutosR$ 100,00");
    expect(totals).toHaveTextContent("SubtotalR$ 100,00");
    expect(totals).toHaveTextContent("Cashback5,00 Pontos");
    expect(api.callsTo(CART_TOTALS)).toHaveLength(1);
    expect(api.callsTo(CONFIRM_CART)).toHaveLength(0);
  });

  it("sets a quantity and reads the changed cart's totals again, still holding nothing", async () => {
    const api = stubCart({
      handlers: { [UPDATE_CART]: () => jsonResponse([buildCartLine({ quantity: 3 })]) },
    });
    await openCart();

    fireEvent.click(screen.getByRole("button", { name: "Aumentar a quantidade de Camiseta do clube" }));

    await waitFor(() => expect(api.callsTo(CART_TOTALS)).toHaveLength(2));
    expect(api.callsTo(CONFIRM_CART)).toHaveLength(0);
    expect(api.bodiesOf(UPDATE_CART)).toEqual([{ shoppingItems: [{ id: 3, quantity: 3 }] }]);
    expect(screen.getByText("3", { selector: "output" })).toBeInTheDocument();
  });

  it("shows the server's refusal under 'Erro' when the cart cannot be held", async () => {
    stubCart({
      handlers: {
        [CONFIRM_CART]: () => jsonResponse({ messages: ["O estoque desse(s) produto(s) está esgotado no momento."] }, 422),
      },
    });
    await openCart();
    click("Ir para entrega");

    expect(await within(notifications()).findByText("O estoque desse(s) produto(s) está esgotado no momento.")).toBeInTheDocument();
    expect(within(notifications()).getByText("Erro")).toBeInTheDocument();
  });
});

describe("cart, delivery and payment", () => {
  it("asks for a delivery place, and CEP and address for home delivery, before the payment", async () => {
    stubCart();
    await openCart();
    click("Ir para entrega");
    await heading("Informações de entrega e retirada");
    expect(screen.getByRole("timer")).toBeInTheDocument();

    click("Ir para pagamento");
    expect(screen.getByLabelText("Local de entrega ou retirada")).toHaveAccessibleDescription("Esse campo é obrigatório");

    fireEvent.change(screen.getByLabelText("Local de entrega ou retirada"), { target: { value: "31" } });
    click("Ir para pagamento");
    expect(screen.getByLabelText("CEP")).toHaveAccessibleDescription("Esse campo é obrigatório");
    expect(screen.getByLabelText("Endereço")).toHaveAccessibleDescription("Esse campo é obrigatório");
    // The delivery's price joins the totals.
    expect(screen.getByRole("region", { name: "Resumo do pedido" })).toHaveTextContent("EntregaR$ 15,00");

    fireEvent.change(screen.getByLabelText("Endereço"), { target: { value: "Rua Augusta" } });
    fireEvent.change(screen.getByLabelText("CEP"), { target: { value: "01310100" } });
    fireEvent.change(screen.getByLabelText("CEP"), { target: { value: "0131010" } });
    fireEvent.change(screen.getByLabelText("CEP"), { target: { value: "0131010x" } });
    click("Ir para pagamento");
    // "0131010" is short of the 8 digits.
    expect(screen.getByRole("heading", { level: 1, name: "Informações de entrega e retirada" })).toBeInTheDocument();
  });

  it("skips delivery when every product is digital, titled 'Saldo' when the wallet pays all", async () => {
    stubCart({ lines: [digitalLine()], totals: { total_final_value: 3000, wallet_value: 3000 } });
    await openCart();
    click("Ir para entrega");

    expect(await heading("Saldo")).toBeInTheDocument();
    expect(screen.queryByRole("radio")).not.toBeInTheDocument();
  });

  it("titles 'Saldo e cartão' and asks card or PIX when the balance does not cover the total", async () => {
    stubCart({ balanceCents: 4000 });
    await toPayment();

    expect(await heading("Saldo e cartão")).toBeInTheDocument();
    expect(screen.getByText("Valor a pagar").nextElementSibling).toHaveTextContent("R$ 60,00");
    click("Revisar pedido");
    expect(await screen.findByText("Esse campo é obrigatório")).toBeInTheDocument();

    fireEvent.click(screen.getByRole("radio", { name: "Cartão de crédito" }));
    expect(screen.getByLabelText("Número do cartão")).toBeInTheDocument();
    fireEvent.click(screen.getByRole("radio", { name: "PIX" }));
    expect(screen.queryByLabelText("Número do cartão")).not.toBeInTheDocument();

    click("Revisar pedido");
    expect(await heading("Confira seu pedido")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Gerar código para pagamento" })).toBeInTheDocument();
  });

  it("titles 'Forma da pagamento' without a balance", async () => {
    stubCart({ balanceCents: 0 });
    await toPayment();
    expect(await heading("Forma da pagamento")).toBeInTheDocument();
  });

  it("sends the member back to step 0 when the reservation runs out", async () => {
    let confirmations = 0;
    stubCart({
      handlers: {
        [CONFIRM_CART]: () => {
          confirmations += 1;
          // The hold made by 'Ir para entrega' ends a second later.
          return jsonResponse(buildReservation(inSeconds(confirmations === 1 ? 1 : 900)));
        },
      },
    });
    await openCart();
    click("Ir para entrega");
    await heading("Informações de entrega e retirada");

    expect(
      await within(notifications()).findByText(
        "O tempo limite de reserva de produto para compra se esgotou. Por favor, comece novamente.",
        {},
        { timeout: 3000 },
      ),
    ).toBeInTheDocument();
    expect(within(notifications()).getByText("Tempo de reserva esgotado")).toBeInTheDocument();
    expect(await heading("Meu carrinho")).toBeInTheDocument();
  });
});

async function toReview(options: CartStubOptions = {}) {
  const api = stubCart(options);
  await toPayment();
  await heading("Saldo");
  click("Revisar pedido");
  await heading("Confira seu pedido");
  return api;
}

describe("cart, review and order", () => {
  it("applies a coupon and shows the total after it; 'Remover' takes it off", async () => {
    const api = await toReview({
      handlers: { [APPLY_COUPON]: () => jsonResponse(buildCouponApplied({ total_final_value: 9000, wallet_value: 9000 })) },
    });

    click("Inserir cupom de desconto");
    const dialog = screen.getByRole("dialog", { name: "Aplicar cupom de desconto" });
    fireEvent.change(within(dialog).getByLabelText("Código do cupom"), { target: { value: " BEMVINDO " } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Aplicar cupom" }));

    expect(await within(notifications()).findByText("Cupom aplicado com sucesso!")).toBeInTheDocument();
    expect(within(notifications()).getByText("Tudo certo")).toBeInTheDocument();
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(screen.getByText(/Cupom BEMVINDO/)).toHaveTextContent("-R$ 10,00");
    expect(screen.getByRole("region", { name: "Pagamento" })).toHaveTextContent("TotalR$ 90,00");
    expect(api.bodySentTo(APPLY_COUPON)).toMatchObject({ coupon_code: "BEMVINDO", user_id: 1 });

    click("Remover");
    expect(screen.getByRole("region", { name: "Pagamento" })).toHaveTextContent("TotalR$ 100,00");
    // The use claimed into the hold goes back on the server too.
    await waitFor(() => expect(api.bodiesOf(REMOVE_COUPON)).toEqual([{ user_id: 1 }]));
  });

  it("shows a refused coupon under 'Cupom inválido' with the server's message, and no 'Erro'", async () => {
    await toReview({
      handlers: { [APPLY_COUPON]: () => jsonResponse({ messages: ["Este cupom atingiu o limite de usos."] }, 422) },
    });

    click("Inserir cupom de desconto");
    const dialog = screen.getByRole("dialog", { name: "Aplicar cupom de desconto" });
    fireEvent.change(within(dialog).getByLabelText("Código do cupom"), { target: { value: "ESGOTADO" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Aplicar cupom" }));

    expect(await within(notifications()).findByText("Cupom inválido")).toBeInTheDocument();
    expect(within(notifications()).getByText("Este cupom atingiu o limite de usos.")).toBeInTheDocument();
    expect(within(notifications()).queryByText("Erro")).not.toBeInTheDocument();
    expect(within(dialog).getByLabelText("Código do cupom")).toHaveAccessibleDescription("Este cupom atingiu o limite de usos.");
  });

  it("says 'Não foi possível aplicar este cupom.' when the server gives no reason", async () => {
    await toReview({ handlers: { [APPLY_COUPON]: () => jsonResponse({ error: "Erro interno no servidor" }, 500) } });

    click("Inserir cupom de desconto");
    const dialog = screen.getByRole("dialog", { name: "Aplicar cupom de desconto" });
    fireEvent.change(within(dialog).getByLabelText("Código do cupom"), { target: { value: "X" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Aplicar cupom" }));

    expect(await within(notifications()).findByText("Não foi possível aplicar este cupom.")).toBeInTheDocument();
  });

  it("places a wallet-paid order and shows 'Pedido realizado com sucesso!'", async () => {
    const api = await toReview({ handlers: { [PLACE_ORDER]: () => jsonResponse(buildOrder()) } });

    click("Efetuar pagamento");

    expect(await heading("Pedido realizado com sucesso!")).toBeInTheDocument();
    expect(screen.getByText("PED-000077")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Ver comprovante" })).toHaveAttribute("href", "/homepage/pedidos/77");
    expect(screen.getByRole("link", { name: "Ver comprovante do pedido e Gerar voucher" })).toHaveAttribute(
      "href",
      "/homepage/pedidos/77",
    );
    expect(api.bodySentTo(PLACE_ORDER)).toEqual({
      user_id: 1,
      checkout_id: 9,
      cart: [{ action_id: 20, "product-3": 2, deliveryLocation: 32 }],
      isOnlyPayment: false,
      payment: null,
    });
  });

  it("opens the failure dialog with 'Motivo: ...'; 'Sim' goes back to the payment step", async () => {
    const api = await toReview({
      handlers: { [PLACE_ORDER]: () => jsonResponse({ messages: ["O tempo de reserva terminou."] }, 422) },
    });

    click("Efetuar pagamento");

    const dialog = await screen.findByRole("dialog");
    expect(dialog).toHaveTextContent(
      "Não foi possível completar sua transação. Por favor, tente novamente. Motivo: O tempo de reserva terminou.",
    );
    expect(within(notifications()).queryByText("Erro")).not.toBeInTheDocument();
    const holdsBefore = api.callsTo(CONFIRM_CART).length;
    fireEvent.click(within(dialog).getByRole("button", { name: "Sim" }));
    expect(await heading("Saldo")).toBeInTheDocument();
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    // The refusal may have ended the hold (a declined card's does): the cart is held again.
    expect(api.callsTo(CONFIRM_CART)).toHaveLength(holdsBefore + 1);
  });

  it("treats an order refused for an ended hold as the reservation running out", async () => {
    const ended = "O tempo limite de reserva de produto para compra se esgotou. Por favor, comece novamente.";
    await toReview({ handlers: { [PLACE_ORDER]: () => jsonResponse({ messages: [ended] }, 422) } });

    click("Efetuar pagamento");

    expect(await within(notifications()).findByText("Tempo de reserva esgotado")).toBeInTheDocument();
    expect(await heading("Meu carrinho")).toBeInTheDocument();
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  it("opens the failure dialog with the declined card's reason", async () => {
    stubCart({
      balanceCents: 0,
      totals: { wallet_value: 0, credit_card_value: 10000 },
      handlers: {
        [PLACE_ORDER]: () =>
          jsonResponse(
            buildOrder({
              status: "Pagamento recusado",
              status_code: "declined",
              payments: [
                { id: 2, method: "card", amount: 10000, status: "failed", installments: 1, expires_at: null, failure_reason: "Cartão recusado pelo emissor" },
              ],
            }),
          ),
      },
    });
    await toPayment();
    await heading("Forma da pagamento");
    fireEvent.click(screen.getByRole("radio", { name: "PIX" }));
    click("Revisar pedido");
    await heading("Confira seu pedido");
    click("Gerar código para pagamento");

    expect(await screen.findByRole("dialog")).toHaveTextContent("Motivo: Cartão recusado pelo emissor");
    fireEvent.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Cancelar" }));
    // The declined order's hold is gone on the server: back to the cart.
    expect(await heading("Meu carrinho")).toBeInTheDocument();
  });

  it("holds the cart again when 'Sim' follows a declined card, and pays with the new hold", async () => {
    const declinedOrder = buildOrder({
      status: "Pagamento recusado",
      status_code: "declined",
      payments: [
        { id: 2, method: "card", amount: 10000, status: "failed", installments: 1, expires_at: null, failure_reason: "Cartão recusado pelo emissor" },
      ],
    });
    const api = stubCart({
      balanceCents: 0,
      totals: { wallet_value: 0, credit_card_value: 10000 },
      handlers: { [PLACE_ORDER]: () => jsonResponse(declinedOrder) },
    });
    await toPayment();
    await heading("Forma da pagamento");
    fireEvent.click(screen.getByRole("radio", { name: "PIX" }));
    click("Revisar pedido");
    await heading("Confira seu pedido");
    click("Gerar código para pagamento");
    const holdsBefore = api.callsTo(CONFIRM_CART).length;

    fireEvent.click(within(await screen.findByRole("dialog")).getByRole("button", { name: "Sim" }));

    expect(await heading("Forma da pagamento")).toBeInTheDocument();
    expect(api.callsTo(CONFIRM_CART)).toHaveLength(holdsBefore + 1);
  });
});

describe("cart, PIX", () => {
  const pixOrder = (expiresInSeconds: number) =>
    buildOrder({
      status: "Aguardando pagamento",
      status_code: "pending",
      wallet_value: 0,
      credit_card_value: 11500,
      gateway_charge: {
        charge_id: "sbx_pix_1",
        payment_method: "pix",
        pix_qr_code: "00020101021226770014BR.GOV.BCB.PIX6304EEAB",
        expiration_date: inSeconds(expiresInSeconds),
      },
    });

  async function toPix(handlers: Record<string, ApiHandler>, sandbox = false) {
    const api = stubCart({ balanceCents: 0, totals: { wallet_value: 0, credit_card_value: 10000 }, handlers, sandbox });
    await toPayment();
    await heading("Forma da pagamento");
    fireEvent.click(screen.getByRole("radio", { name: "PIX" }));
    click("Revisar pedido");
    await heading("Confira seu pedido");
    click("Gerar código para pagamento");
    await screen.findByRole("heading", { name: "Pagamento com PIX" });
    return api;
  }

  it("shows the charge's code and amount, and says when the payment is not confirmed yet", async () => {
    const api = await toPix({
      [PLACE_ORDER]: () => jsonResponse(pixOrder(600)),
      [orderCall(77)]: () => jsonResponse([pixOrder(600)]),
      [checkPaymentCall(77)]: () => jsonResponse(pixOrder(600)),
    });

    expect(api.bodySentTo(PLACE_ORDER)).toMatchObject({ checkout_id: 9, payment: { type: "pix", installments: 1 } });
    // Not in sandbox mode: nothing simulates the payment.
    expect(screen.queryByRole("button", { name: "Simular pagamento" })).not.toBeInTheDocument();
    expect(screen.getByLabelText("Código PIX copia e cola")).toHaveValue("00020101021226770014BR.GOV.BCB.PIX6304EEAB");
    expect(screen.getByText("R$ 115,00")).toBeInTheDocument();
    click("Verificar pagamento");

    expect(await within(notifications()).findByText("Pagamento não confirmado")).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Pagamento com PIX" })).toBeInTheDocument();
  });

  it("says how to wait when the checks are too many", async () => {
    const wait = "Muitas verificações de pagamento em pouco tempo. Aguarde alguns minutos e tente novamente.";
    await toPix({
      [PLACE_ORDER]: () => jsonResponse(pixOrder(600)),
      [orderCall(77)]: () => jsonResponse([pixOrder(600)]),
      [checkPaymentCall(77)]: () => jsonResponse({ messages: [wait] }, 429),
    });

    click("Verificar pagamento");

    expect(await within(notifications()).findByText(wait)).toBeInTheDocument();
    expect(within(notifications()).getByText("Pagamento não confirmado")).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Pagamento com PIX" })).toBeInTheDocument();
  });

  it("shows the success step once the check (the charge read again) finds the order paid", async () => {
    const api = await toPix({
      [PLACE_ORDER]: () => jsonResponse(pixOrder(600)),
      [orderCall(77)]: () => jsonResponse([pixOrder(600)]),
      [checkPaymentCall(77)]: () => jsonResponse(buildOrder()),
    });

    click("Verificar pagamento");

    expect(await heading("Pedido realizado com sucesso!")).toBeInTheDocument();
    expect(api.callsTo(checkPaymentCall(77))).toHaveLength(1);
  });

  it("in sandbox mode pays the charge with 'Simular pagamento' and shows the order paid without a check", async () => {
    let paid = false;
    const api = await toPix(
      {
        [PLACE_ORDER]: () => jsonResponse(pixOrder(600)),
        [orderCall(77)]: () => jsonResponse([paid ? buildOrder() : pixOrder(600)]),
        [simulatePixCall("sbx_pix_1")]: () => {
          paid = true;
          return jsonResponse({ charge_id: "sbx_pix_1", status: "paid" });
        },
      },
      true,
    );

    click("Simular pagamento");
    await waitFor(() => expect(api.callsTo(simulatePixCall("sbx_pix_1"))).toHaveLength(1));

    // The PIX screen reads the order again on its own.
    expect(await heading("Pedido realizado com sucesso!", 3 * PIX_POLL_MS)).toBeInTheDocument();
    expect(api.callsTo(checkPaymentCall(77))).toHaveLength(0);
  }, 15_000);

  it("goes back to step 0 with 'Tempo expirado' when the PIX expires", async () => {
    await toPix({ [PLACE_ORDER]: () => jsonResponse(pixOrder(1)) });

    expect(await within(notifications()).findByText("Tempo expirado", {}, { timeout: 3000 })).toBeInTheDocument();
    expect(await heading("Meu carrinho")).toBeInTheDocument();
  });
});

describe("cart, card", () => {
  const fill = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

  function fillNewCard(number = "4111 1111 1111 1111") {
    fill("Número do cartão", number);
    fill("Nome impresso no cartão", "Maria da Silva");
    fill("Validade (MM/AA)", "12/30");
    fill("CVV", "123");
    fill("CPF do titular", "529.982.247-25");
    fill("Data de nascimento", "09/03/1990");
    fill("E-mail", "maria@example.com");
    fill("Telefone", "(11) 9 8765-4321");
    fill("Cidade", "São Paulo");
    fill("Estado", "SP");
    fill("Rua", "Avenida Paulista");
    fill("Número", "1000");
  }

  async function toCard(options: CartStubOptions) {
    const api = stubCart({ balanceCents: 4000, totals: { wallet_value: 4000, credit_card_value: 6000 }, ...options });
    await toPayment();
    await heading("Saldo e cartão");
    fireEvent.click(screen.getByRole("radio", { name: "Cartão de crédito" }));
    return api;
  }

  it("tokenises a new card at the sandbox and sends only its token with the order", async () => {
    const api = await toCard({
      sandbox: true,
      handlers: {
        [CARD_TOKENS]: () => jsonResponse({ card_token: "sbx_tok_1" }),
        [PLACE_ORDER]: () => jsonResponse(buildOrder()),
      },
    });
    fillNewCard();
    expect(screen.getByRole("checkbox", { name: SAVE_CARD })).toBeInTheDocument();
    fill("CEP", "01310100");
    click("Revisar pedido");
    await heading("Confira seu pedido");
    click("Efetuar pagamento");

    expect(await heading("Pedido realizado com sucesso!")).toBeInTheDocument();
    expect(api.bodySentTo(CARD_TOKENS)).toEqual({ number: "4111111111111111", holder_name: "Maria da Silva", expiry: "12/30", cvv: "123" });
    const order = api.bodySentTo(PLACE_ORDER) as { payment: Record<string, unknown> };
    expect(order.payment).toEqual({
      type: "credit_card",
      selected_card: 0,
      installments: 1,
      save: false,
      card_token: "sbx_tok_1",
      ...BILLING_ADDRESS,
    });
    expect(JSON.stringify(order)).not.toContain("4111");
  });

  it("with Pagar.me sends the card to its tokeniser with the public key only, and the order its token", async () => {
    const tokens = `POST ${PAGARME_TOKENS}?appId=pk_test_abc`;
    const api = await toCard({
      cardTokenizer: { url: PAGARME_TOKENS, app_id: "pk_test_abc" },
      handlers: {
        [tokens]: () => jsonResponse({ id: "token_Xy12", type: "card" }),
        [PLACE_ORDER]: () => jsonResponse(buildOrder()),
      },
    });
    fillNewCard();
    // Pagar.me keeps cards too: the box is offered (the server saves, then charges).
    expect(screen.getByRole("checkbox", { name: SAVE_CARD })).toBeInTheDocument();
    fill("CEP", "01310100");
    click("Revisar pedido");
    await heading("Confira seu pedido");
    click("Efetuar pagamento");

    expect(await heading("Pedido realizado com sucesso!")).toBeInTheDocument();
    expect(api.bodySentTo(tokens)).toEqual({
      type: "card",
      card: {
        number: "4111111111111111",
        holder_name: "Maria da Silva",
        holder_document: "52998224725",
        exp_month: 12,
        exp_year: 2030,
        cvv: "123",
      },
    });
    // Pagar.me takes Content-Type only: never our session, never a secret key.
    expect(api.authorizationSentTo(tokens)).toBeNull();
    const order = api.bodySentTo(PLACE_ORDER) as { payment: Record<string, unknown> };
    expect(order.payment).toMatchObject({ card_token: "token_Xy12", ...BILLING_ADDRESS });
    expect(JSON.stringify(order)).not.toContain("4111");
    expect(api.callsTo(CARD_TOKENS)).toHaveLength(0);
  });

  it("shows Pagar.me's refusal of the card and orders nothing", async () => {
    const tokens = `POST ${PAGARME_TOKENS}?appId=pk_test_abc`;
    const api = await toCard({
      cardTokenizer: { url: PAGARME_TOKENS, app_id: "pk_test_abc" },
      handlers: {
        [tokens]: () => jsonResponse({ message: "The request is invalid." }, 422),
        [PLACE_ORDER]: () => jsonResponse(buildOrder()),
      },
    });
    fillNewCard();
    fill("CEP", "01310100");
    click("Revisar pedido");
    await heading("Confira seu pedido");
    click("Efetuar pagamento");

    expect(await screen.findByRole("dialog")).toHaveTextContent("Dados do cartão inválidos.");
    expect(api.callsTo(PLACE_ORDER)).toHaveLength(0);
  });

  it("without a tokeniser refuses a new card before anything is ordered", async () => {
    const api = await toCard({ handlers: { [PLACE_ORDER]: () => jsonResponse(buildOrder()) } });
    fillNewCard();
    fill("CEP", "01310100");
    click("Revisar pedido");
    await heading("Confira seu pedido");
    click("Efetuar pagamento");

    expect(await screen.findByRole("dialog")).toHaveTextContent("Pagamento com cartão novo indisponível no momento.");
    expect(api.callsTo(PLACE_ORDER)).toHaveLength(0);
    expect(api.callsTo(CARD_TOKENS)).toHaveLength(0);
  });

  it("makes the first saved card the default when the cards arrive after the card was chosen", async () => {
    let answerCards: (response: Response) => void = () => undefined;
    const cardsAnswered = new Promise<Response>((resolve) => (answerCards = resolve));
    await toCard({ handlers: { [SAVED_CARDS]: () => cardsAnswered } });
    // Nothing saved known yet: the new card's form shows, untouched.
    expect(screen.getByLabelText("Número do cartão")).toBeInTheDocument();
    answerCards(jsonResponse([{ id: 12, brand: "Visa", last_digits: "1111", issuing: "Visa" }]));
    expect(await screen.findByLabelText("Cartão")).toHaveValue("12");
    expect(screen.queryByLabelText("Número do cartão")).not.toBeInTheDocument();
  });

  it("keeps a new card being typed when the saved cards arrive late", async () => {
    let answerCards: (response: Response) => void = () => undefined;
    const cardsAnswered = new Promise<Response>((resolve) => (answerCards = resolve));
    await toCard({ handlers: { [SAVED_CARDS]: () => cardsAnswered } });
    fill("Número do cartão", "4111");
    answerCards(jsonResponse([{ id: 12, brand: "Visa", last_digits: "1111", issuing: "Visa" }]));
    expect(await screen.findByLabelText("Cartão")).toHaveValue("0");
    expect(screen.getByLabelText("Número do cartão")).toHaveValue("4111");
  });

  it("offers the saved cards ('Novo cartão' is 0) and the installments the server computed", async () => {
    const api = await toCard({
      lines: [buildCartLine({ product: buildProduct({ action: buildShopAction({ allow_installments: true }) }) })],
      handlers: {
        [SAVED_CARDS]: () => jsonResponse([{ id: 12, brand: "Visa", last_digits: "1111", issuing: "Visa" }]),
        [INSTALLMENTS]: () =>
          jsonResponse([
            { installment: 1, installment_amount: 6000 },
            { installment: 3, installment_amount: 2000 },
          ]),
        [PLACE_ORDER]: () => jsonResponse(buildOrder()),
      },
    });

    const cards = await screen.findByLabelText("Cartão");
    expect(within(cards).getAllByRole("option").map((option) => option.textContent)).toEqual(["Visa final 1111", "Novo cartão"]);
    // The saved card is the default (spec 002 section 4); 'Novo cartão' opens the card form.
    expect(cards).toHaveValue("12");
    expect(screen.getByText("Visa **** **** **** 1111")).toBeInTheDocument();
    expect(screen.queryByLabelText("Número do cartão")).not.toBeInTheDocument();
    fireEvent.change(cards, { target: { value: "0" } });
    expect(screen.getByLabelText("Número do cartão")).toBeInTheDocument();
    expect(screen.queryByText("Visa **** **** **** 1111")).not.toBeInTheDocument();
    fireEvent.change(cards, { target: { value: "12" } });
    expect(screen.queryByLabelText("Número do cartão")).not.toBeInTheDocument();

    const parcels = await screen.findByLabelText("Parcelas");
    expect(within(parcels).getByRole("option", { name: "3x de R$ 20,00" })).toBeInTheDocument();
    click("Revisar pedido");
    expect(await screen.findByText("Esse campo é obrigatório")).toBeInTheDocument();
    fireEvent.change(parcels, { target: { value: "3" } });
    click("Revisar pedido");
    await heading("Confira seu pedido");
    click("Efetuar pagamento");

    expect(await heading("Pedido realizado com sucesso!")).toBeInTheDocument();
    expect(api.bodySentTo(INSTALLMENTS)).toEqual({ action_id: 20, amount: 6000 });
    expect(api.bodySentTo(PLACE_ORDER)).toMatchObject({ payment: { type: "credit_card", selected_card: 12, installments: 3 } });
  });
});

describe("cart, station without the shop", () => {
  it("is not found when the station has no checkout", async () => {
    stubCart();
    renderApp({ path: CART_PATH, station: buildStation({ checkout_access: false }) });
    expect(await screen.findByRole("heading", { name: "Página não encontrada" })).toBeInTheDocument();
  });
});


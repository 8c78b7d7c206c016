import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import {
  ACCOUNT,
  BUY,
  CARD_TOKENS,
  SAVED_CARDS,
  TYPED_CARD,
  buildPlan,
  buildSubscription,
  changeCall,
  planCall,
} from "@/features/subscriptions/testing/subscription-fixtures";
import { buildWalletBalance, jsonResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { CEP_LOOKUP, byCep, cepAddress } from "@/testing/cep-lookup";
import { DEFAULT_CONFIG, stubApi, type ApiHandler } from "@/testing/stub-api";

const BALANCE = "GET /api/users-points/1";
const PREMIUM = buildPlan({ id: 2, name: "Premium", amount: 5990, discount: 1000 });
const FREE = buildPlan({ id: 5, name: "Gratuito", amount: 0 });

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  signIn();
});

function stubPurchase(handlers: Record<string, ApiHandler> = {}, subscription: unknown = null) {
  return stubApi(
    {
      [BALANCE]: () => jsonResponse(buildWalletBalance()),
      [ACCOUNT]: () => jsonResponse({ id: 1, subscription }),
      [planCall(2)]: () => jsonResponse(PREMIUM),
      [planCall(5)]: () => jsonResponse(FREE),
      [SAVED_CARDS]: () => jsonResponse([]),
      [CEP_LOOKUP]: byCep({
        "01310100": () => cepAddress({ street: "Rua Augusta", neighborhood: "Consolação", city: "São Paulo", state: "SP" }),
      }),
      ...handlers,
    },
    { ...DEFAULT_CONFIG, payments_sandbox: true },
  );
}

const fill = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

function fillCard() {
  for (const [label, value] of Object.entries(TYPED_CARD)) fill(label, value);
  fill("Estado", "SP");
  fill("CEP", "01310100");
}

describe("plan purchase", () => {
  it("tokenises the new card in the browser, sends only its token, and confirms once the charge has a date", async () => {
    const bought = buildSubscription({ plan: PREMIUM, transaction: { id: 901, date_created: "2026-11-29T12:00:00Z" } });
    let account: unknown = null;
    const api = stubPurchase({
      // Once bought, the plan is the member's: the confirmation still shows.
      [ACCOUNT]: () => jsonResponse({ id: 1, subscription: account }),
      [CARD_TOKENS]: () => jsonResponse({ card_token: "sbx_tok_9" }),
      [BUY]: () => {
        account = bought;
        return jsonResponse(bought, 201);
      },
    });
    renderApp({ path: "/homepage/planos/2/comprar" });

    expect(await screen.findByRole("heading", { level: 1, name: "Premium" })).toBeInTheDocument();
    expect(screen.getByText("R$ 49,90/mês")).toBeInTheDocument();
    expect(screen.getByText(/Você pode cancelar a qualquer momento, sem multa\./)).toBeInTheDocument();
    fillCard();
    expect(await screen.findByDisplayValue("Consolação")).toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Realizar pagamento" }));

    expect(await screen.findByRole("heading", { level: 1, name: "Pedido realizado com sucesso!" })).toBeInTheDocument();
    await waitFor(() => expect(api.callsTo(ACCOUNT).length).toBeGreaterThan(1));
    expect(screen.getByRole("heading", { level: 1, name: "Pedido realizado com sucesso!" })).toBeInTheDocument();
    expect(screen.getByText("Assinatura realizada")).toBeInTheDocument();
    expect(screen.getAllByText("Operação realizada com sucesso").length).toBeGreaterThan(0);
    expect(api.bodySentTo(CARD_TOKENS)).toEqual({ number: "4000000000000010", holder_name: "Maria da Silva", expiry: "12/30", cvv: "123" });
    const body = api.bodySentTo(BUY);
    expect(body).toEqual({
      plan_id: 2,
      card_token: "sbx_tok_9",
      card_holder_name: "Maria da Silva",
      card_expiration_date: "12/30",
      cpf: "52998224725",
      birthday: "1990-02-01",
      phone: "11987654321",
      zipcode: "01310100",
      street: "Rua Augusta",
      street_number: "100",
      neighborhood: "Consolação",
      state: "SP",
      city: "São Paulo",
      save: true,
    });
    expect(JSON.stringify(body)).not.toContain("4000000000000010");
  });

  it("shows the plan's own recurring-charge text when it has one", async () => {
    stubPurchase({ [planCall(2)]: () => jsonResponse({ ...PREMIUM, purchase_text: "Cobrança mensal; cancele quando quiser, sem multa." }) });
    renderApp({ path: "/homepage/planos/2/comprar" });
    expect(await screen.findByText("Cobrança mensal; cancele quando quiser, sem multa.")).toBeInTheDocument();
    expect(screen.queryByText(/Você pode cancelar a qualquer momento/)).not.toBeInTheDocument();
  });

  it("checks every field before calling anything", async () => {
    const api = stubPurchase();
    renderApp({ path: "/homepage/planos/2/comprar" });
    fireEvent.click(await screen.findByRole("button", { name: "Realizar pagamento" }));

    expect(screen.getAllByText("Esse campo é obrigatório")).toHaveLength(13);
    expect(screen.getByLabelText("Bairro")).toHaveAttribute("aria-invalid", "true");
    fill("Número do cartão", "4000000000000011");
    expect(screen.getByText("Número inválido")).toBeInTheDocument();
    expect(api.callsTo(CARD_TOKENS)).toHaveLength(0);
    expect(api.callsTo(BUY)).toHaveLength(0);
  });

  it("asks no card for a plan costing nothing", async () => {
    const api = stubPurchase({ [BUY]: () => jsonResponse(buildSubscription({ plan: FREE, transaction: null }), 201) });
    const { page } = renderApp({ path: "/homepage/planos/5/comprar" });

    expect(await screen.findByText("Você não será cobrado nenhum valor.")).toBeInTheDocument();
    expect(screen.queryByLabelText("Número do cartão")).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Realizar pagamento" })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Continuar" }));

    expect(await screen.findByText("Assinatura realizada")).toBeInTheDocument();
    expect(api.bodySentTo(BUY)).toEqual({ plan_id: 5 });
    expect(page.location.pathname).toBe("/homepage/planos");
  });

  it("shows 'Erro: {error}' for a refusal with an error, and each field's message otherwise", async () => {
    let answer = jsonResponse({ error: "Cartão recusado" }, 422);
    stubPurchase({ [CARD_TOKENS]: () => jsonResponse({ card_token: "sbx_tok_9" }), [BUY]: () => answer });
    renderApp({ path: "/homepage/planos/2/comprar" });
    await screen.findByRole("heading", { level: 1, name: "Premium" });
    fillCard();
    fireEvent.click(screen.getByRole("button", { name: "Realizar pagamento" }));
    const alert = () => screen.getByRole("alert");
    expect(await within(alert()).findByText("Erro: Cartão recusado")).toBeInTheDocument();

    answer = jsonResponse({ messages: ["CPF inválido", "CEP inválido"] }, 422);
    fireEvent.click(screen.getByRole("button", { name: "Realizar pagamento" }));
    expect(await within(alert()).findByText("CEP inválido")).toBeInTheDocument();
    expect(within(alert()).getByText("CPF inválido")).toBeInTheDocument();

    answer = jsonResponse({}, 500);
    fireEvent.click(screen.getByRole("button", { name: "Realizar pagamento" }));
    expect(await within(alert()).findByText("Erro")).toBeInTheDocument();
  });
});

describe("plan change", () => {
  const current = buildSubscription({ plan: buildPlan({ id: 1, name: "Essencial", amount: 2990 }) });

  it("is 'mudar' for a member with a plan, and keeps the plan's card unless another is chosen", async () => {
    const api = stubPurchase({ [changeCall(40)]: () => jsonResponse(buildSubscription({ plan: PREMIUM })) }, current);
    const { page } = renderApp({ path: "/homepage/planos/2/comprar" });

    expect(await screen.findByRole("heading", { level: 1, name: "Premium" })).toBeInTheDocument();
    expect(page.location.pathname).toBe("/homepage/planos/2/mudar");
    expect(screen.getByLabelText("Cartão")).toHaveDisplayValue("Cartão atual: Visa final 1111");
    expect(screen.queryByLabelText("Número do cartão")).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Realizar pagamento" }));

    expect(await screen.findByRole("heading", { level: 1, name: "Pedido realizado com sucesso!" })).toBeInTheDocument();
    expect(api.bodySentTo(changeCall(40))).toEqual({ plan_id: 2 });
  });

  it("charges nothing now for a downgrade", async () => {
    stubPurchase({}, buildSubscription({ plan: PREMIUM }));
    renderApp({ path: "/homepage/planos/5/mudar" });
    expect(await screen.findByText("Você não será cobrado nenhum valor.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Continuar" })).toBeInTheDocument();
  });

  it("says the plan is the member's own", async () => {
    stubPurchase({}, buildSubscription({ plan: PREMIUM }));
    renderApp({ path: "/homepage/planos/2/mudar" });
    expect(await screen.findByText("Este é seu plano atual")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Realizar pagamento" })).not.toBeInTheDocument();
  });
});

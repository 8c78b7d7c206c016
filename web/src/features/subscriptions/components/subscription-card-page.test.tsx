import { fireEvent, screen } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import {
  ACCOUNT,
  CARD_TOKENS,
  CHARGES,
  SUBSCRIBED_ACTIONS,
  SAVED_CARDS,
  SAVE_CARD,
  TYPED_CARD,
  buildSubscription,
  cardCall,
} from "@/features/subscriptions/testing/subscription-fixtures";
import { buildWalletBalance, jsonResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { DEFAULT_CONFIG, stubApi, type ApiHandler } from "@/testing/stub-api";

const BALANCE = "GET /api/users-points/1";

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  signIn();
});

function stubCards(handlers: Record<string, ApiHandler> = {}) {
  return stubApi(
    {
      [BALANCE]: () => jsonResponse(buildWalletBalance()),
      [CARD_TOKENS]: () => jsonResponse({ card_token: "sbx_tok_5" }),
      [SAVED_CARDS]: () => jsonResponse([]),
      [CHARGES]: () => jsonResponse([]),
      [SUBSCRIBED_ACTIONS]: () => jsonResponse([]),
      [ACCOUNT]: () => jsonResponse({ id: 1, subscription: null }),
      ...handlers,
    },
    { ...DEFAULT_CONFIG, payments_sandbox: true },
  );
}

const fill = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

function fillCard() {
  for (const [label, value] of Object.entries(TYPED_CARD)) fill(label, value);
  fill("Estado", "SP");
  fill("CEP", "01.310-100");
}

describe("'Cadastrar novo cartão'", () => {
  it("previews the card as it is typed, the middle digits hidden", async () => {
    stubCards();
    renderApp({ path: "/homepage/cartao-assinatura" });
    expect(await screen.findByRole("heading", { level: 1, name: "Cadastrar novo cartão" })).toBeInTheDocument();
    const preview = screen.getByTestId("card-preview");
    expect(preview).toHaveAttribute("aria-hidden", "true");
    expect(preview).toHaveTextContent("•••• •••• •••• ••••");
    fill("Número do cartão", "5555444433331111");
    fill("Nome impresso no cartão", "Maria da Silva");
    fill("Validade (MM/AA)", "0731");
    expect(preview).toHaveTextContent("Mastercard");
    expect(preview).toHaveTextContent("5555 •••• •••• 1111");
    expect(preview).toHaveTextContent("MARIA DA SILVA");
    expect(preview).toHaveTextContent("07/31");
  });

  it("saves the card by its token and starts over", async () => {
    const api = stubCards({
      [SAVE_CARD]: () => jsonResponse({ id: 3, brand: "Visa", last_digits: "0010", issuing: "Visa", expiration_date: "12/30" }, 201),
    });
    renderApp({ path: "/homepage/cartao-assinatura" });
    await screen.findByRole("heading", { level: 1, name: "Cadastrar novo cartão" });
    fillCard();
    fireEvent.click(screen.getByRole("button", { name: "Salvar cartão" }));

    expect(await screen.findByText("Cartão salvo com sucesso")).toBeInTheDocument();
    const body = api.bodySentTo(SAVE_CARD);
    expect(body).toEqual({
      card_token: "sbx_tok_5",
      name: "Maria da Silva",
      cpf: "52998224725",
      birthday: "01/02/1990",
      phone: "11987654321",
      cep: "01310100",
      street: "Rua Augusta",
      street_number: "100",
      city: "São Paulo",
      state: "SP",
    });
    expect(JSON.stringify(body)).not.toContain("4000000000000010");
    expect(screen.getByLabelText("Número do cartão")).toHaveValue("");
  });

  it("gives an unpaid subscription the new card, which tries the charge again", async () => {
    const api = stubCards({ [cardCall(41)]: () => new Response(null, { status: 204 }) });
    const { page } = renderApp({ path: "/homepage/cartao-assinatura?assinatura=41" });
    await screen.findByRole("heading", { level: 1, name: "Cadastrar novo cartão" });
    fillCard();
    fireEvent.click(screen.getByRole("button", { name: "Salvar cartão" }));

    expect(await screen.findByText("Operação realizada com sucesso")).toBeInTheDocument();
    expect(api.bodySentTo(cardCall(41))).toMatchObject({ card_token: "sbx_tok_5", card_holder_name: "Maria da Silva", save: true });
    expect(api.callsTo(SAVE_CARD)).toHaveLength(0);
    expect(page.location.pathname).toBe("/homepage/assinaturas");
  });
});

describe("plan's card", () => {
  it("replaces the plan's card with a saved one", async () => {
    const api = stubCards({
      [ACCOUNT]: () => jsonResponse({ id: 1, subscription: buildSubscription() }),
      [SAVED_CARDS]: () => jsonResponse([{ id: 3, brand: "Elo", last_digits: "4242", issuing: "Elo", expiration_date: "01/29" }]),
      [cardCall(40)]: () => new Response(null, { status: 204 }),
      "GET /api/subscription-plans": () => jsonResponse([]),
    });
    const { page } = renderApp({ path: "/homepage/planos/editar-pagamento" });
    expect(await screen.findByText("Cartão atual: Visa final 1111 (validade 12/30)")).toBeInTheDocument();
    fireEvent.change(await screen.findByLabelText("Cartão"), { target: { value: "3" } });
    expect(screen.queryByLabelText("Número do cartão")).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Salvar" }));

    expect(await screen.findByText("Operação realizada com sucesso")).toBeInTheDocument();
    expect(api.bodySentTo(cardCall(40))).toEqual({ selected_card: 3 });
    expect(page.location.pathname).toBe("/homepage/planos");
  });

  it("says when the member has no plan", async () => {
    stubCards({ [ACCOUNT]: () => jsonResponse({ id: 1, subscription: null }) });
    renderApp({ path: "/homepage/planos/editar-pagamento" });
    expect(await screen.findByText("Você não possui um plano.")).toBeInTheDocument();
  });
});

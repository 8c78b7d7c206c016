import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { CARD_TOKENS, SAVED_CARDS, SAVE_CARD, TYPED_CARD } from "@/features/subscriptions/testing/subscription-fixtures";
import { CEP_LOOKUP, byCep, cepAddress } from "@/testing/cep-lookup";
import { buildWalletBalance, jsonResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { DEFAULT_CONFIG, stubApi, type ApiHandler } from "@/testing/stub-api";
import type { SavedCard } from "@/types/api";

const PATH = "/homepage/meios-de-pagamento";
const BALANCE = "GET /api/users-points/1";
const removeCall = (id: number) => `DELETE /api/user-credit-cards/${id}`;
const defaultCall = (id: number) => `PUT /api/user-credit-cards/${id}/default`;

const VISA: SavedCard = { id: 3, brand: "visa", last_digits: "0010", issuing: "visa", expiration_date: "12/30", is_default: true };
const MASTER: SavedCard = {
  id: 4,
  brand: "mastercard",
  last_digits: "4444",
  issuing: "mastercard",
  expiration_date: "03/32",
  is_default: false,
};

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  signIn();
});

function stubCards(handlers: Record<string, ApiHandler>) {
  return stubApi(
    {
      [BALANCE]: () => jsonResponse(buildWalletBalance()),
      [CARD_TOKENS]: () => jsonResponse({ card_token: "sbx_tok_9" }),
      [CEP_LOOKUP]: byCep({
        "01310100": () => cepAddress({ street: "Rua Augusta", neighborhood: "Consolação", city: "São Paulo", state: "SP" }),
      }),
      ...handlers,
    },
    { ...DEFAULT_CONFIG, payments_sandbox: true },
  );
}

const cardItem = (name: string) => screen.getByRole("listitem", { name });

describe("'Meios de pagamento'", () => {
  it("shows placeholders while the cards load", async () => {
    stubCards({ [SAVED_CARDS]: () => new Promise<Response>(() => undefined) });
    renderApp({ path: PATH });
    expect(await screen.findByRole("heading", { level: 1, name: "Meios de pagamento" })).toBeInTheDocument();
    expect(screen.getByRole("status", { name: "Carregando meios de pagamento" })).toBeInTheDocument();
  });

  it("lists each card masked, with its issuer, expiry and the default, and 'Adicionar' opens the form", async () => {
    stubCards({ [SAVED_CARDS]: () => jsonResponse([VISA, MASTER]) });
    const { page } = renderApp({ path: PATH });
    const visa = await screen.findByRole("listitem", { name: "Visa final 0010" });
    expect(visa).toHaveTextContent("•••• •••• •••• 0010");
    expect(visa).toHaveTextContent("Emissor: Visa");
    expect(visa).toHaveTextContent("Validade: 12/30");
    expect(visa).toHaveTextContent("Padrão");
    expect(within(visa).queryByRole("button", { name: "Tornar padrão" })).not.toBeInTheDocument();
    const master = cardItem("Mastercard final 4444");
    expect(master).not.toHaveTextContent("Padrão");

    fireEvent.click(screen.getByRole("link", { name: "Adicionar" }));
    expect(await screen.findByRole("heading", { level: 1, name: "Cadastrar novo cartão" })).toBeInTheDocument();
    expect(page.location.pathname).toBe("/homepage/meios-de-pagamento/criar");
  });

  it("says there are no payment methods and that the wallet can be topped up from them", async () => {
    stubCards({ [SAVED_CARDS]: () => jsonResponse([]) });
    renderApp({ path: PATH });
    expect(
      await screen.findByText(
        "Você ainda não possui meios de pagamento cadastrados. Cadastre um cartão para abastecer sua carteira de créditos com ele.",
      ),
    ).toBeInTheDocument();
  });

  it("offers to try again when the cards cannot be read", async () => {
    let calls = 0;
    stubCards({
      [SAVED_CARDS]: () => {
        calls += 1;
        return calls === 1 ? jsonResponse({ error: "Você não possui autorização para acessar esta página." }, 403) : jsonResponse([VISA]);
      },
    });
    renderApp({ path: PATH });
    expect(await screen.findByText("Não foi possível carregar os seus meios de pagamento.")).toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Tentar novamente" }));
    expect(await screen.findByRole("listitem", { name: "Visa final 0010" })).toBeInTheDocument();
  });

  it("makes a card the default", async () => {
    const api = stubCards({
      [SAVED_CARDS]: () => jsonResponse([VISA, MASTER]),
      [defaultCall(4)]: () => jsonResponse([{ ...MASTER, is_default: true }, { ...VISA, is_default: false }]),
    });
    renderApp({ path: PATH });
    fireEvent.click(within(await screen.findByRole("listitem", { name: "Mastercard final 4444" })).getByRole("button", { name: "Tornar padrão" }));
    await waitFor(() => expect(cardItem("Mastercard final 4444")).toHaveTextContent("Padrão"));
    expect(cardItem("Visa final 0010")).not.toHaveTextContent("Padrão");
    expect(api.callsTo(defaultCall(4))).toHaveLength(1);
  });

  it("removes a card only once confirmed", async () => {
    const api = stubCards({
      [SAVED_CARDS]: () => jsonResponse([VISA, MASTER]),
      [removeCall(4)]: () => jsonResponse([VISA]),
    });
    renderApp({ path: PATH });
    const master = await screen.findByRole("listitem", { name: "Mastercard final 4444" });
    fireEvent.click(within(master).getByRole("button", { name: "Remover" }));
    let dialog = await screen.findByRole("dialog", { name: "Remover cartão" });
    expect(dialog).toHaveTextContent("Remover o cartão Mastercard final 4444?");
    fireEvent.click(within(dialog).getByRole("button", { name: "Voltar" }));
    expect(api.callsTo(removeCall(4))).toHaveLength(0);

    fireEvent.click(within(cardItem("Mastercard final 4444")).getByRole("button", { name: "Remover" }));
    dialog = await screen.findByRole("dialog", { name: "Remover cartão" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Remover" }));
    await waitFor(() => expect(screen.queryByRole("listitem", { name: "Mastercard final 4444" })).not.toBeInTheDocument());
    expect(api.callsTo(removeCall(4))).toHaveLength(1);
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  it("shows why the card of a subscription is not removed", async () => {
    const refusal = "Este cartão paga a sua assinatura Essencial. Cadastre outro cartão na assinatura antes de removê-lo.";
    stubCards({
      [SAVED_CARDS]: () => jsonResponse([VISA]),
      [removeCall(3)]: () => jsonResponse({ error: refusal }, 409),
    });
    renderApp({ path: PATH });
    fireEvent.click(within(await screen.findByRole("listitem", { name: "Visa final 0010" })).getByRole("button", { name: "Remover" }));
    fireEvent.click(within(await screen.findByRole("dialog", { name: "Remover cartão" })).getByRole("button", { name: "Remover" }));
    expect(await screen.findByText(refusal)).toBeInTheDocument();
    expect(cardItem("Visa final 0010")).toBeInTheDocument();
  });
});

describe("'Meios de pagamento' new card", () => {
  const fill = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

  it("tokenises the card in the browser, saves it and goes back to the cards", async () => {
    let saved = false;
    const api = stubCards({
      [SAVED_CARDS]: () => jsonResponse(saved ? [VISA] : []),
      [SAVE_CARD]: () => {
        saved = true;
        return jsonResponse(VISA);
      },
    });
    const { page } = renderApp({ path: `${PATH}/criar` });
    await screen.findByRole("heading", { level: 1, name: "Cadastrar novo cartão" });
    for (const [label, value] of Object.entries(TYPED_CARD)) fill(label, value);
    fill("Estado", "SP");
    fill("CEP", "01.310-100");
    await waitFor(() => expect(screen.getByLabelText("Rua")).toHaveValue("Rua Augusta"));
    fireEvent.click(screen.getByRole("button", { name: "Salvar cartão" }));

    expect(await screen.findByText("Cartão salvo com sucesso")).toBeInTheDocument();
    await waitFor(() => expect(page.location.pathname).toBe(PATH));
    expect(await screen.findByRole("listitem", { name: "Visa final 0010" })).toBeInTheDocument();
    const body = api.bodySentTo(SAVE_CARD);
    expect(body).toMatchObject({ card_token: "sbx_tok_9", name: "Maria da Silva" });
    expect(JSON.stringify(body)).not.toContain("4000000000000010");
  });
});

import { fireEvent, screen, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { activityCall, buildActivity, homeHandlers } from "@/features/activities/testing/activity-fixtures";
import { buildProduct } from "@/features/commerce/testing/commerce-fixtures";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import {
  ACCOUNT,
  CARD_TOKENS,
  CHARGES,
  SUBSCRIBED_ACTIONS,
  SAVED_CARDS,
  SUBSCRIBE_PRODUCT,
  TYPED_CARD,
  lastOfActionCall,
  productsCall,
} from "@/features/subscriptions/testing/subscription-fixtures";
import { buildWalletBalance, jsonResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { DEFAULT_CONFIG, stubApi, type ApiHandler } from "@/testing/stub-api";

const BALANCE = "GET /api/users-points/1";

const BOOK_CLUB = buildActivity({
  id: 30,
  name: "Clube do livro",
  type_id: 21,
  action_subscriptions: [
    { id: 1, recurrence: "monthly", description: "Um livro por mês" },
    { id: 2, recurrence: "quarterly", description: "" },
  ],
});

const BOOK = buildProduct({ id: 70, action_id: 30, name: "Livro do mês", value: 4990, discount_value: 990, stock: 10 });

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  signIn();
});

function stubBookClub(handlers: Record<string, ApiHandler> = {}) {
  return stubApi(
    {
      ...homeHandlers(),
      [BALANCE]: () => jsonResponse(buildWalletBalance()),
      [activityCall(30)]: () => jsonResponse(BOOK_CLUB),
      [productsCall(30)]: () => jsonResponse([BOOK]),
      [lastOfActionCall(30)]: () => jsonResponse(null),
      [SAVED_CARDS]: () => jsonResponse([]),
      [CARD_TOKENS]: () => jsonResponse({ card_token: "sbx_tok_7" }),
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

describe("type 21: product subscription", () => {
  it("subscribes to the chosen product and recurrence with a tokenised card, then opens its charges", async () => {
    const api = stubBookClub({ [SUBSCRIBE_PRODUCT]: () => jsonResponse({ id: 41, action_id: 30 }, 201) });
    const { page } = renderApp({ path: "/homepage/atividades/30" });

    const products = await screen.findByRole("group", { name: "Produto" });
    expect(within(products).getByRole("radio", { name: /Livro do mês/ })).not.toBeChecked();
    expect(within(products).getByText("R$ 40,00")).toBeInTheDocument();
    const recurrences = screen.getByRole("group", { name: "Recorrência" });
    expect(within(recurrences).getByRole("radio", { name: /Mensal/ })).toBeChecked();
    fireEvent.click(within(products).getByRole("radio", { name: /Livro do mês/ }));
    fireEvent.click(within(recurrences).getByRole("radio", { name: /Trimestral/ }));
    fillCard();
    fireEvent.click(screen.getByRole("button", { name: "Assinar" }));

    expect(await screen.findByRole("heading", { level: 1, name: "Minhas assinaturas" })).toBeInTheDocument();
    expect(page.location.pathname).toBe("/homepage/assinaturas/30");
    expect(screen.getByText("Assinatura realizada")).toBeInTheDocument();
    const body = api.bodySentTo(SUBSCRIBE_PRODUCT);
    expect(body).toMatchObject({
      action_id: 30,
      action_subscription_id: 2,
      products: [{ id: 70, quantity: 1 }],
      card_token: "sbx_tok_7",
      neighborhood: "Consolação",
    });
    expect(JSON.stringify(body)).not.toContain("4000000000000010");
  });

  it("says 'Produto não selecionado' when no product is chosen", async () => {
    const api = stubBookClub();
    renderApp({ path: "/homepage/atividades/30" });
    await screen.findByRole("group", { name: "Produto" });
    fillCard();
    fireEvent.click(screen.getByRole("button", { name: "Assinar" }));

    expect(await screen.findByText("Produto não selecionado")).toBeInTheDocument();
    expect(screen.getByText("Por favor, selecione o produto para realizar a assinatura.")).toBeInTheDocument();
    expect(api.callsTo(SUBSCRIBE_PRODUCT)).toHaveLength(0);
  });

  it("says the product is unavailable when none is on sale, and tells the server's refusal", async () => {
    stubBookClub({ [productsCall(30)]: () => jsonResponse([{ ...BOOK, stock: 0 }]) });
    renderApp({ path: "/homepage/atividades/30" });
    expect(await screen.findByText("Produto indisponível para assinatura no momento.")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Assinar" })).not.toBeInTheDocument();
  });

  it("leads a member already subscribed to 'Minhas assinaturas'", async () => {
    stubBookClub({ [lastOfActionCall(30)]: () => jsonResponse({ id: 41, action_id: 30, cancelled: false }) });
    renderApp({ path: "/homepage/atividades/30" });
    expect(await screen.findByText("Você já assina este produto.")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Minhas assinaturas" })).toHaveAttribute("href", "/homepage/assinaturas/30");
    expect(screen.queryByRole("button", { name: "Assinar" })).not.toBeInTheDocument();
  });

  it("shows the server's refusal", async () => {
    stubBookClub({
      [SUBSCRIBE_PRODUCT]: () => jsonResponse({ messages: ["Produto indisponível para assinatura no momento."] }, 422),
    });
    renderApp({ path: "/homepage/atividades/30" });
    fireEvent.click(within(await screen.findByRole("group", { name: "Produto" })).getByRole("radio"));
    fillCard();
    fireEvent.click(screen.getByRole("button", { name: "Assinar" }));
    expect(await within(screen.getByRole("alert")).findByText("Produto indisponível para assinatura no momento.")).toBeInTheDocument();
  });
});

// Answers of the plans and subscriptions API, for the feature's screen tests.
import type { Plan, SubscriptionCharge, UserSubscription } from "@/features/subscriptions/api/types";

export const PLANS = "GET /api/subscription-plans";
export const planCall = (id: number) => `GET /api/subscription-plans/${id}`;
export const ACCOUNT = "GET /api/users-web/1";
export const BUY = "POST /api/subscriptions";
export const changeCall = (id: number) => `PUT /api/subscriptions/${id}`;
export const cardCall = (id: number) => `PUT /api/subscriptions/${id}/card`;
export const CANCEL = "POST /api/subscriptions/cancel";
export const CHARGES = "GET /api/subscriptions/?where[user_id]=1";
export const SAVED_CARDS = "GET /api/user-credit-cards/1";
export const SAVE_CARD = "POST /api/user-credit-cards";
export const CARD_TOKENS = "POST /api/sandbox/card-tokens";
export const ENTERPRISE = "POST /api/subscription-plans/enterprise-contact";
export const SUBSCRIBE_PRODUCT = "POST /api/subscribe-product-action";
export const cancelActionCall = (id: number) => `POST /api/cancel-user-subscribed-action/${id}`;
export const productsCall = (actionId: number) => `GET /api/action-products/${actionId}`;
export const lastOfActionCall = (actionId: number) => `GET /api/last-action-subscription?where[action_id]=${actionId}`;

export function buildPlan(overrides: Partial<Plan> = {}): Plan {
  return {
    id: 1,
    external_id: null,
    name: "Essencial",
    description: "Para começar",
    benefits: [{ id: 1, benefit: "Descontos em parceiros" }],
    amount: 2990,
    discount: 0,
    days: 30,
    is_highlighted: false,
    deletedAt: null,
    image: null,
    purchase_text: null,
    ...overrides,
  };
}

export function buildSubscription(overrides: Partial<UserSubscription> = {}): UserSubscription {
  return {
    id: 40,
    plan: buildPlan(),
    status: "active",
    card: { id: 3, brand: "Visa", last_digits: "1111", expiration_date: "12/30" },
    current_period_end: "2026-12-29T12:00:00Z",
    cancel_at_period_end: false,
    next_plan: null,
    transaction: { id: 900, date_created: "2026-11-29T12:00:00Z" },
    internal_id: "subscription-40",
    amount: 2990,
    ...overrides,
  };
}

export function buildCharge(overrides: Partial<SubscriptionCharge> = {}): SubscriptionCharge {
  return {
    id: 1,
    subscription_id: 40,
    actionId: null,
    plan_id: 1,
    name: "Essencial",
    action_subscription: null,
    cancelled: false,
    paid: true,
    status: "Pago",
    taken_back: null,
    vigencia: "29/11/2026 a 29/12/2026",
    priceFormatted: "R$ 29,90",
    paidFormatted: "R$ 29,90",
    recurrenceFormatted: "Mensal",
    createdAt: "2026-11-29T12:00:00Z",
    ...overrides,
  };
}

/** A new card's fields as a member types them (a sandbox test card, a valid CPF). */
export const TYPED_CARD = {
  "Número do cartão": "4000000000000010",
  "Nome impresso no cartão": "Maria da Silva",
  "Validade (MM/AA)": "1230",
  CVV: "123",
  "CPF do titular": "52998224725",
  "Data de nascimento": "01021990",
  Telefone: "11987654321",
  Rua: "Rua Augusta",
  Número: "100",
  Bairro: "Consolação",
  Cidade: "São Paulo",
} as const;

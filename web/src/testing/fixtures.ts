import { storeSession } from "@/lib/session-store";
import type { EarnTransaction, Establishment, Station, UseTransaction, User, WalletBalance, WalletDebt } from "@/types/api";

export const demoEstablishment: Establishment = {
  id: 3,
  cnpj: "11222333000181",
  full_social_name: "Associação Filia Demo",
  address: { city: "São Paulo", line_1: "Rua Augusta, 100", line_2: "Sala 1", state: "SP", zipcode: "01310100" },
};

export function buildStation(overrides: Partial<Station> = {}): Station {
  return {
    id: 7,
    name: "Clube Filia Demo",
    subdomain: "demo",
    custom_host: null,
    url: "http://127.0.0.1:8080",
    domain: "filiademo",
    ios_link: null,
    android_link: null,
    has_app: false,
    has_majority_security: true,
    age_gate: false,
    public: true,
    affiliated: false,
    promotional: false,
    no_cpf: false,
    feed_access: true,
    events_access: true,
    files_access: true,
    checkout_access: true,
    my_account_access: true,
    lucky_numbers_access: false,
    member_card_access: false,
    pre_registration_access: false,
    home_shortcuts_access: false,
    enterprise_plan_access: false,
    fuel_campaign_access: false,
    legal_access: false,
    accounting_access: false,
    health_access: false,
    political_access: false,
    support_chat_url: null,
    address: "Rua Augusta, 100, São Paulo - SP",
    phone: "(11) 4000-1234",
    contact_mail: "contato@filia.example",
    main_brand_color: "#0E7C66",
    secondary_brand_color: "#F2A541",
    font_family: "Lato",
    logo_image: "/brand/demo/logo.svg",
    header_image: null,
    favicon_image: "/brand/demo/favicon.svg",
    currency_multiplier: 1,
    currency_name: "Pontos",
    currency_name_position: "after",
    signup_flow: "multi_step",
    login_with: "email",
    time_zone: "America/Sao_Paulo",
    createdAt: "2026-11-21T10:00:00Z",
    establishment: demoEstablishment,
    plans: [],
    ...overrides,
  };
}

export function buildUser(overrides: Partial<User> = {}): User {
  return {
    id: 1,
    name: "Maria Silva",
    email: "maria@filia.example",
    cpf: null,
    tel: null,
    birthday: null,
    state: null,
    city: null,
    image: null,
    invite_code: "ABCD1234",
    type_id: 2,
    role: "member",
    active: 1,
    deletedAt: null,
    points: 0,
    briefingDone: true,
    has_password: true,
    station_id: 7,
    establishment: demoEstablishment,
    addresses: [],
    subscription: null,
    ...overrides,
  };
}

/** Stores a session as a login would, and returns its user. */
export function signIn(overrides: Partial<User> = {}, token = "test-token"): User {
  const user = buildUser(overrides);
  storeSession({ user, token });
  return user;
}

/** A fetch answer with a JSON body. */
export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}

/** A page of a paged list: its items, and in X-Total-Count how many the whole list holds. */
export function pageResponse(items: unknown[], total = items.length): Response {
  return new Response(JSON.stringify(items), {
    headers: { "Content-Type": "application/json", "X-Total-Count": String(total) },
  });
}

export function buildWalletBalance(overrides: Partial<WalletBalance> = {}): WalletBalance {
  return {
    user_id: 1,
    points: 150.5,
    points_cents: 15050,
    pending_points: 50,
    pending_cents: 5000,
    debt_points: 0,
    debt_cents: 0,
    ...overrides,
  };
}

/** A debt of the statement: 20 points owed, 5 of them paid. */
export function buildWalletDebt(overrides: Partial<WalletDebt> = {}): WalletDebt {
  return {
    id: 2,
    points: 20,
    points_cents: 2000,
    settled_points: 5,
    settled_cents: 500,
    open_cents: 1500,
    description: "Estorno de crédito já utilizado: Cashback do pedido 9F3K2A",
    createdAt: "2026-11-22T12:00:00Z",
    settled_at: null,
    ...overrides,
  };
}

/** A credit of the statement; ids count up so lists of them have distinct keys. */
export function buildEarnTransaction(overrides: Partial<EarnTransaction> = {}): EarnTransaction {
  return {
    id: 12,
    points: 100,
    points_cents: 10000,
    state: "available",
    source_kind: "activity",
    createdAt: "2026-11-21T12:00:00Z",
    available_at: "2026-11-21T12:00:00Z",
    released_at: "2026-11-21T13:00:00Z",
    expires_at: null,
    action: { id: 3, name: "Recompensa de cadastro" },
    ...overrides,
  };
}

export function buildUseTransaction(overrides: Partial<UseTransaction> = {}): UseTransaction {
  return {
    id: 4,
    points: 25,
    points_cents: 2500,
    source_kind: "purchase",
    createdAt: "2026-11-20T12:00:00Z",
    action: { id: null, name: "Pedido 42" },
    ...overrides,
  };
}

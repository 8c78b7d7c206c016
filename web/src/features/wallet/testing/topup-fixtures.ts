// Answers of the top-up API shaped by the contract's types, for the top-up screen's tests.
import type { TopUp, TopUpSettings, TransferRequest } from "@/types/api";

export const TOP_UP_PATH = "/homepage/meios-de-pagamento/comprar";
export const TOP_UP_SETTINGS = "GET /api/wallet/topup-settings";
export const BUY_POINTS = "POST /api/user-buy-points-transaction";
export const TRANSFER_REQUEST = "POST /api/transfer-request";
export const TRANSFER_REQUESTS = "GET /api/transfer-request/?where[user_id]=1";
export const topUpCall = (id: number) => `GET /api/user-buy-points-transaction/${id}`;
export const topUpCheckCall = (id: number) => `POST /api/user-buy-points-transaction/${id}/check-payment`;

export const BANK = {
  bank_name: "Banco Demo",
  agency: "0001",
  account: "12345-6",
  holder: "Associação Filia Demo",
  document: "11.222.333/0001-81",
  pix_key: "pix@filia.example",
};

export function buildTopUpSettings(overrides: Partial<TopUpSettings> = {}): TopUpSettings {
  return {
    min_cents: 1000,
    max_cents: 500_000,
    daily_max_cents: 1_000_000,
    daily_left_cents: 1_000_000,
    review_above_cents: 100_000,
    transfer_expiry_hours: 72,
    bank: BANK,
    ...overrides,
  };
}

export function buildTopUp(overrides: Partial<TopUp> = {}): TopUp {
  return {
    id: 41,
    method: "card",
    points: 50,
    amount_cents: 5000,
    status: "credited",
    failure_reason: null,
    created_at: "2026-11-29T12:00:00Z",
    credited_at: "2026-11-29T12:00:01Z",
    expires_at: null,
    pix: null,
    ...overrides,
  };
}

/** A PIX top-up waiting for its payment, expiring `expiresInSeconds` from now. */
export function buildPixTopUp(expiresInSeconds = 600, overrides: Partial<TopUp> = {}): TopUp {
  const expiresAt = new Date(Date.now() + expiresInSeconds * 1000).toISOString();
  return buildTopUp({
    method: "pix",
    status: "pending",
    credited_at: null,
    expires_at: expiresAt,
    pix: {
      charge_id: "sbx_pix_9",
      payment_method: "pix",
      pix_qr_code: "00020101021226770014BR.GOV.BCB.PIX6304EEAB",
      expiration_date: expiresAt,
    },
    ...overrides,
  });
}

export function buildTransferRequest(overrides: Partial<TransferRequest> = {}): TransferRequest {
  return {
    id: 7,
    points: 150.5,
    createdAt: "2026-11-28T15:00:00Z",
    expiresAt: "2026-12-01T15:00:00Z",
    status: { name: "Aguardando confirmação" },
    ...overrides,
  };
}

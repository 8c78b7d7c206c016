// The top-up shapes of the money-in contract (docs/api-wallet.md, "Top-ups"), in centavos
// (`*_cents`) with `points` the same amount in reais (1 point = R$ 1,00).
import type { GatewayCharge } from "@/types/api";

export type TopUpMethod = "pix" | "card" | "transfer";
export type TopUpStatus = "pending" | "review" | "credited" | "failed" | "expired" | "rejected" | "refunded";

export interface BankDetails {
  bank_name: string;
  agency: string;
  account: string;
  holder: string;
  document: string;
  pix_key: string | null;
}

export interface TopUpSettings {
  min_cents: number;
  max_cents: number;
  daily_max_cents: number;
  daily_left_cents: number;
  review_above_cents: number;
  transfer_expiry_hours: number;
  bank: BankDetails | null;
}

export interface TopUpRequest {
  points: number;
  method: "pix" | "card";
  card_id?: number;
  card_token?: string;
  save_card?: boolean;
  /** A new card's billing address, needed only to save it. */
  billing_address?: BillingAddress;
}

export interface BillingAddress {
  cep: string;
  street: string;
  street_number: string;
  city: string;
  state: string;
}

export interface TopUp {
  id: number;
  method: TopUpMethod;
  points: number;
  amount_cents: number;
  status: TopUpStatus;
  failure_reason: string | null;
  created_at: string;
  credited_at: string | null;
  expires_at: string | null;
  pix: GatewayCharge | null;
}

export interface TransferRequest {
  id: number;
  points: number;
  createdAt: string;
  expiresAt: string | null;
  status: { name: string };
}

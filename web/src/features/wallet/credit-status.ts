// What a credit's line says about its state (the statement's "Créditos de Premiação").
import { formatDate } from "@/lib/dates";
import type { EarnTransaction } from "@/types/api";

export const AWAITING_RELEASE_TEXT = "Aguardando liberação";
export const REVERSED_TEXT = "Estornado";
export const EXPIRED_TEXT = "Expirado";

/**
 * A pending credit tells when its holding period ends, or that it only waits for the next
 * scheduled release once that time has passed; an available credit says nothing.
 */
export function creditStatusText(credit: Pick<EarnTransaction, "state" | "available_at">, now: number): string | null {
  switch (credit.state) {
    case "pending":
      return new Date(credit.available_at).getTime() > now
        ? `A liberar em ${formatDate(credit.available_at)}`
        : AWAITING_RELEASE_TEXT;
    case "reversed":
      return REVERSED_TEXT;
    case "expired":
      return EXPIRED_TEXT;
    case "available":
      return null;
  }
}

// How the console names a subscription's states, periods and tries, and which actions
// a subscription allows (the server's rules, docs/api-subscriptions.md and decisions.md).
import type { OpsSubscription, OpsSubscriptionTry } from "@/features/staff/api/subscriptions";
import { formatReais } from "@/features/staff/format";

export const SUBSCRIPTION_STATUS_LABELS: Record<string, string> = {
  incomplete: "Aguardando o 1º pagamento",
  active: "Ativa",
  past_due: "Em atraso",
  canceled: "Cancelada",
  ended: "Encerrada",
};

/** The badge colour of each status (ops.css): paid up green, owing red, waiting blue. */
export const SUBSCRIPTION_STATUS_BADGES: Record<string, string> = {
  incomplete: "running",
  active: "succeeded",
  past_due: "failed",
  canceled: "cancelled",
  ended: "cancelled",
};

export const PERIOD_KIND_LABELS: Record<string, string> = {
  first: "Primeiro período",
  renewal: "Renovação",
  proration: "Mudança de plano",
};

/** The member's words for a charge ('Minhas assinaturas'). */
export const PERIOD_STATUS_LABELS: Record<string, string> = {
  due: "Aguardando pagamento",
  paid: "Pago",
  failed: "Recusado",
  void: "Cancelado",
};

export const TRY_STATUS_LABELS: Record<string, string> = {
  started: "Iniciada",
  pending: "Pendente",
  processing: "Em análise",
  paid: "Paga",
  failed: "Recusada",
  canceled: "Cancelada",
  refunded: "Estornada",
};

/** A plan's period (`month`, ...) or a type 21 recurrence (`weekly`, ...). */
export const RECURRENCE_LABELS: Record<string, string> = {
  month: "Mensal",
  semester: "Semestral",
  year: "Anual",
  weekly: "Semanal",
  biweekly: "Quinzenal",
  monthly: "Mensal",
  bimonthly: "Bimestral",
  quarterly: "Trimestral",
  halfyearly: "Semestral",
  yearly: "Anual",
};

/** A label of `labels`, or the server's own word for one this console does not know yet. */
export function labelOf(labels: Record<string, string>, value: string): string {
  return Object.hasOwn(labels, value) ? (labels[value] ?? value) : value;
}

/** Live: the member has (or is getting) access, and the engine still charges it. */
export function isLive(subscription: Pick<OpsSubscription, "status">): boolean {
  return ["incomplete", "active", "past_due"].includes(subscription.status);
}

/**
 * A retry charges a renewal still due of a live, paid-once subscription
 * (`billing::lock_due_period`); anything else would be a 202 that does nothing.
 */
export function canRetry(subscription: Pick<OpsSubscription, "status" | "periods">): boolean {
  return (
    (subscription.status === "active" || subscription.status === "past_due") &&
    subscription.periods.some((period) => period.kind === "renewal" && period.status === "due")
  );
}

/** A live subscription not already set to end with its period. */
export function canCancel(subscription: Pick<OpsSubscription, "status" | "cancel_at_period_end">): boolean {
  return isLive(subscription) && !subscription.cancel_at_period_end;
}

/** What the subscription is for: its plan, or its activity and product (type 21). */
export function subjectOf(subscription: Pick<OpsSubscription, "name" | "product_name">): string {
  const parts = [subscription.name, subscription.product_name].filter((part): part is string => Boolean(part));
  return parts.length > 0 ? parts.join(" · ") : "—";
}

/** The card renewals charge ('visa final 0010'), or a dash when it has none (PIX, free). */
export function cardOf(subscription: Pick<OpsSubscription, "card_brand" | "card_last_digits">): string {
  if (!subscription.card_last_digits) return "—";
  return `${subscription.card_brand ?? "cartão"} final ${subscription.card_last_digits}`;
}

/** What the provider took back of a paid try (a chargeback, a refund at the provider), or null. */
export function takenBackOf(attempt: Pick<OpsSubscriptionTry, "bank_refunded_cents" | "chargedback_at">): string | null {
  if (attempt.chargedback_at) return "Contestada pelo titular do cartão (chargeback)";
  if (attempt.bank_refunded_cents > 0) return `Estornada no provedor: ${formatReais(attempt.bank_refunded_cents)}`;
  return null;
}

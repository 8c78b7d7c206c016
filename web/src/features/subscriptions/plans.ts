// What a plan card shows (spec 002 "Subscriptions and plans" and section 9): the price is
// the amount less the discount, per the period's label; a plan without an amount is 'A
// negociar'; plans are sorted by price, deleted ones hidden.
import { formatCents } from "@/lib/currency";
import type { Plan, UserSubscription } from "@/features/subscriptions/api/types";

export const TO_NEGOTIATE_TEXT = "A negociar";
export const MOST_POPULAR_TEXT = "Mais popular";
export const MORE_BENEFITS_TEXT = "E muito mais!";
export const CURRENT_PLAN_TEXT = "Este é seu plano atual";
export const UPGRADE_TEXT = "Fazer upgrade";
export const DOWNGRADE_TEXT = "Fazer downgrade";
/** A member without a plan buys one (the spec names only the change buttons). */
export const SUBSCRIBE_TEXT = "Assinar";
/** A plan 'A negociar' leads to the enterprise form. */
export const CONTACT_TEXT = "Entrar em contato";
/** The Enterprise card (spec 002: "an Enterprise card" beside the plans, one station only). */
export const ENTERPRISE_CARD_NAME = "Enterprise";
export const ENTERPRISE_CARD_TEXT = "Um plano sob medida para a sua organização.";
export const SHOWN_BENEFITS = 5;
/** 'E muito mais!' shows only past six benefits (spec 002), although five are listed. */
const MORE_BENEFITS_AFTER = 6;

/** What the member pays per period, in centavos; null for a plan 'A negociar'. */
export function planPriceCents(plan: Pick<Plan, "amount" | "discount">): number | null {
  if (plan.amount === null) return null;
  return Math.max(0, plan.amount - plan.discount);
}

/** 30 days is a month, 183 a semester, 365 a year; any other length reads as a year. */
export function periodLabel(days: number): string {
  if (days === 30) return "mês";
  if (days === 183) return "semestre";
  return "ano";
}

/** "R$ 29,90/mês", or 'A negociar'. */
export function planPriceText(plan: Pick<Plan, "amount" | "discount" | "days">): string {
  const price = planPriceCents(plan);
  if (price === null) return TO_NEGOTIATE_TEXT;
  return `R$ ${formatCents(price)}/${periodLabel(plan.days)}`;
}

/** Live plans by price ascending, 'A negociar' last; equal prices keep the server's order. */
export function sortPlans<P extends Pick<Plan, "amount" | "discount" | "deletedAt">>(plans: readonly P[]): P[] {
  const rank = (plan: P) => planPriceCents(plan) ?? Number.POSITIVE_INFINITY;
  return plans.filter((plan) => plan.deletedAt === null).sort((a, b) => rank(a) - rank(b));
}

/** The benefits listed on a card and whether 'E muito mais!' follows them. */
export function shownBenefits<B>(benefits: readonly B[]): { shown: B[]; more: boolean } {
  return { shown: benefits.slice(0, SHOWN_BENEFITS), more: benefits.length > MORE_BENEFITS_AFTER };
}

export type PlanAction = "comprar" | "mudar";

export interface PlanButton {
  label: string;
  disabled: boolean;
  /** Where the button leads; null when it is disabled. */
  to: string | null;
}

export const ENTERPRISE_PATH = "/homepage/planos/sobconsulta";

export function planPurchasePath(planId: number, action: PlanAction): string {
  return `/homepage/planos/${planId}/${action}`;
}

/**
 * A plan card's button for a member on `current` (null: no plan): the current plan's is
 * disabled; a plan costing at least as much is an upgrade, a cheaper one a downgrade (what
 * the member pays: docs/decisions.md decides a change by it); 'A negociar' asks for contact.
 */
export function planButton(plan: Plan, current: UserSubscription | null): PlanButton {
  const price = planPriceCents(plan);
  if (current && current.plan.id === plan.id) return { label: CURRENT_PLAN_TEXT, disabled: true, to: null };
  if (price === null) return { label: CONTACT_TEXT, disabled: false, to: ENTERPRISE_PATH };
  if (!current) return { label: SUBSCRIBE_TEXT, disabled: false, to: planPurchasePath(plan.id, "comprar") };
  const currentPrice = planPriceCents(current.plan) ?? 0;
  const label = price >= currentPrice ? UPGRADE_TEXT : DOWNGRADE_TEXT;
  return { label, disabled: false, to: planPurchasePath(plan.id, "mudar") };
}

/** The reasons a cancellation asks for (spec 002), sent as `cancelReason`. */
export const CANCEL_REASONS = [
  "Prefiro não mencionar",
  "Não acho um bom custo-benefício",
  "Não utilizo mais o produto",
  "Outro",
] as const;

/** Type 21's recurrences (spec 001 section 9) as the member reads them. */
const RECURRENCE_LABELS: Record<string, string> = {
  weekly: "Semanal",
  biweekly: "Quinzenal",
  monthly: "Mensal",
  bimonthly: "Bimestral",
  quarterly: "Trimestral",
  halfyearly: "Semestral",
  yearly: "Anual",
};

export function recurrenceLabel(recurrence: string): string {
  return RECURRENCE_LABELS[recurrence] ?? recurrence;
}

import { describe, expect, it } from "vitest";
import {
  CONTACT_TEXT,
  CURRENT_PLAN_TEXT,
  DOWNGRADE_TEXT,
  SUBSCRIBE_TEXT,
  UPGRADE_TEXT,
  periodLabel,
  planButton,
  planPriceCents,
  planPriceText,
  recurrenceLabel,
  shownBenefits,
  sortPlans,
} from "@/features/subscriptions/plans";
import { buildPlan, buildSubscription } from "@/features/subscriptions/testing/subscription-fixtures";

describe("plan prices", () => {
  it("is the amount less the discount, with a comma decimal per period", () => {
    expect(planPriceCents(buildPlan({ amount: 4990, discount: 1000 }))).toBe(3990);
    expect(planPriceText(buildPlan({ amount: 4990, discount: 1000, days: 30 }))).toBe("R$ 39,90/mês");
    expect(planPriceText(buildPlan({ amount: 19990, discount: 0, days: 183 }))).toBe("R$ 199,90/semestre");
    expect(planPriceText(buildPlan({ amount: 123456, discount: 0, days: 365 }))).toBe("R$ 1.234,56/ano");
  });

  it("is 'A negociar' without an amount, and never below zero", () => {
    expect(planPriceText(buildPlan({ amount: null }))).toBe("A negociar");
    expect(planPriceCents(buildPlan({ amount: null }))).toBeNull();
    expect(planPriceCents(buildPlan({ amount: 500, discount: 900 }))).toBe(0);
  });

  it("labels 30 days a month, 183 a semester, 365 and anything else a year", () => {
    expect([30, 183, 365, 90].map(periodLabel)).toEqual(["mês", "semestre", "ano", "ano"]);
  });
});

describe("plan lists", () => {
  it("sorts by price ascending, 'A negociar' last, and hides deleted plans", () => {
    const plans = [
      buildPlan({ id: 1, amount: null }),
      buildPlan({ id: 2, amount: 5000, discount: 2500 }),
      buildPlan({ id: 3, amount: 3000 }),
      buildPlan({ id: 4, amount: 100, deletedAt: "2026-11-01T00:00:00Z" }),
      buildPlan({ id: 5, amount: 0 }),
    ];
    expect(sortPlans(plans).map((plan) => plan.id)).toEqual([5, 2, 3, 1]);
  });

  it("lists five benefits and 'E muito mais!' only past six", () => {
    const of = (count: number) => Array.from({ length: count }, (_, index) => index);
    expect(shownBenefits(of(3))).toEqual({ shown: [0, 1, 2], more: false });
    expect(shownBenefits(of(6))).toEqual({ shown: [0, 1, 2, 3, 4], more: false });
    expect(shownBenefits(of(7))).toEqual({ shown: [0, 1, 2, 3, 4], more: true });
  });
});

describe("plan buttons", () => {
  const current = buildSubscription({ plan: buildPlan({ id: 2, amount: 4990, discount: 1000 }) });

  it("disables the current plan's", () => {
    expect(planButton(buildPlan({ id: 2 }), current)).toEqual({ label: CURRENT_PLAN_TEXT, disabled: true, to: null });
  });

  it("upgrades to a plan costing at least as much and downgrades to a cheaper one", () => {
    expect(planButton(buildPlan({ id: 3, amount: 3990 }), current)).toEqual({
      label: UPGRADE_TEXT,
      disabled: false,
      to: "/homepage/planos/3/mudar",
    });
    expect(planButton(buildPlan({ id: 4, amount: 9990 }), current).label).toBe(UPGRADE_TEXT);
    expect(planButton(buildPlan({ id: 5, amount: 3989 }), current)).toEqual({
      label: DOWNGRADE_TEXT,
      disabled: false,
      to: "/homepage/planos/5/mudar",
    });
  });

  it("buys when the member has no plan, and asks for contact for 'A negociar'", () => {
    expect(planButton(buildPlan({ id: 3 }), null)).toEqual({ label: SUBSCRIBE_TEXT, disabled: false, to: "/homepage/planos/3/comprar" });
    expect(planButton(buildPlan({ id: 6, amount: null }), current)).toEqual({
      label: CONTACT_TEXT,
      disabled: false,
      to: "/homepage/planos/sobconsulta",
    });
  });
});

describe("recurrences", () => {
  it("reads type 21's recurrences in Portuguese", () => {
    expect(["weekly", "biweekly", "monthly", "bimonthly", "quarterly", "halfyearly", "yearly"].map(recurrenceLabel)).toEqual([
      "Semanal",
      "Quinzenal",
      "Mensal",
      "Bimestral",
      "Trimestral",
      "Semestral",
      "Anual",
    ]);
  });
});

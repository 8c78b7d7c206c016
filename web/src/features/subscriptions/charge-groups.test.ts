import { describe, expect, it } from "vitest";
import { groupCharges, opensByDefault } from "@/features/subscriptions/charge-groups";
import { buildCharge } from "@/features/subscriptions/testing/subscription-fixtures";

describe("charge groups", () => {
  it("groups type 21 charges by activity and plan charges by subscription, in the answer's order", () => {
    const groups = groupCharges([
      buildCharge({ id: 5, subscription_id: 41, actionId: 9, name: "Clube do livro" }),
      buildCharge({ id: 4, subscription_id: 40 }),
      buildCharge({ id: 3, subscription_id: 38, actionId: 9, name: "Clube do livro", cancelled: true }),
      buildCharge({ id: 2, subscription_id: 40 }),
    ]);
    expect(groups.map((group) => [group.key, group.subscriptionId, group.charges.map((charge) => charge.id)])).toEqual([
      ["action-9", 41, [5, 3]],
      ["subscription-40", 40, [4, 2]],
    ]);
    // The newest charge is live: the activity's group is not cancelled.
    expect(groups[0]?.cancelled).toBe(false);
  });

  it("is cancelled when its newest charge is, and asks for a card for an unpaid live charge", () => {
    const [cancelled] = groupCharges([buildCharge({ cancelled: true, paid: false, status: "Cancelado" })]);
    expect(cancelled?.cancelled).toBe(true);
    expect(cancelled?.unpaidSubscriptionId).toBeNull();

    const [unpaid] = groupCharges([buildCharge({ id: 2, paid: false, status: "Recusado" }), buildCharge({ id: 1 })]);
    expect(unpaid?.unpaidSubscriptionId).toBe(40);
  });

  it("is cancelled when its subscription will not renew", () => {
    const [ending] = groupCharges([buildCharge({ subscription_id: 40 })], new Set([40]));
    expect(ending?.cancelled).toBe(true);
    const [other] = groupCharges([buildCharge({ subscription_id: 40 })], new Set([41]));
    expect(other?.cancelled).toBe(false);
  });

  it("opens the only group, or the one the address names", () => {
    const [only] = groupCharges([buildCharge({ actionId: 9 })]);
    expect(only && opensByDefault(only, 1, null)).toBe(true);
    expect(only && opensByDefault(only, 2, null)).toBe(false);
    expect(only && opensByDefault(only, 2, 9)).toBe(true);
    expect(only && opensByDefault(only, 2, 8)).toBe(false);
  });
});

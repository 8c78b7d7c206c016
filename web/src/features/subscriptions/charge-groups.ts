// 'Minhas assinaturas' groups the member's charges (newest first) by type 21 activity
// (actionId) and, for plans, by subscription; a group is cancelled when its newest charge
// is or its subscription will not renew, and asks for a new card when a charge not
// cancelled is unpaid.
import type { SubscriptionCharge } from "@/features/subscriptions/api/types";

export interface ChargeGroup {
  key: string;
  actionId: number | null;
  /** The newest charge's subscription: the one to cancel or to give a new card. */
  subscriptionId: number;
  name: string;
  description: string | null;
  charges: SubscriptionCharge[];
  cancelled: boolean;
  /** The subscription of an unpaid charge, or null when every live charge is paid. */
  unpaidSubscriptionId: number | null;
}

function keyOf(charge: SubscriptionCharge): string {
  return charge.actionId !== null ? `action-${charge.actionId}` : `subscription-${charge.subscription_id}`;
}

/**
 * `ending`: subscriptions cancelled whose paid period still runs (they will not renew): their
 * charges are not cancelled yet, but the member has cancelled them.
 */
export function groupCharges(charges: readonly SubscriptionCharge[], ending: ReadonlySet<number> = new Set()): ChargeGroup[] {
  const groups = new Map<string, SubscriptionCharge[]>();
  for (const charge of charges) {
    const key = keyOf(charge);
    groups.set(key, [...(groups.get(key) ?? []), charge]);
  }
  return [...groups.entries()].map(([key, list]) => {
    const newest = list[0] as SubscriptionCharge;
    const unpaid = list.find((charge) => !charge.paid && !charge.cancelled);
    return {
      key,
      actionId: newest.actionId,
      subscriptionId: newest.subscription_id,
      name: newest.name,
      description: newest.action_subscription?.description ?? null,
      charges: list,
      cancelled: newest.cancelled || ending.has(newest.subscription_id),
      unpaidSubscriptionId: unpaid ? unpaid.subscription_id : null,
    };
  });
}

/** A group opens by itself when it is the only one, or the one the address names. */
export function opensByDefault(group: ChargeGroup, groupCount: number, actionId: number | null): boolean {
  return groupCount === 1 || (actionId !== null && group.actionId === actionId);
}

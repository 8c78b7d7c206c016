// The member's plan: read from their account (`User.subscription` of GET /users-web/{id}),
// bought (POST /subscriptions), changed (PUT /subscriptions/{id}), cancelled
// (POST /subscriptions/cancel) and its card replaced (PUT /subscriptions/{id}/card). Each
// answer replaces the member's subscription; the screens show the failures themselves.
import { queryOptions, skipToken, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useSession } from "@/features/session";
import { subscriptionKeys } from "@/features/subscriptions/api/keys";
import type { CancelPlanRequest, CardChoice, PlanPurchaseBody, UserSubscription } from "@/features/subscriptions/api/types";
import { api } from "@/lib/api-client";
import { OWN_ERROR_TEXT } from "@/lib/query-client";
import type { User } from "@/types/api";

export async function getCurrentSubscription(userId: number, { signal }: { signal?: AbortSignal } = {}) {
  const account = await api.get<User>(`/users-web/${userId}`, { signal });
  return account.subscription ?? null;
}

/** The member's plan, or null. */
export function useCurrentSubscription() {
  const userId = useSession()?.user.id;
  return useQuery(
    queryOptions({
      queryKey: subscriptionKeys.current(userId ?? 0),
      queryFn: userId === undefined ? skipToken : ({ signal }) => getCurrentSubscription(userId, { signal }),
    }),
  );
}

export function buyPlan(body: PlanPurchaseBody): Promise<UserSubscription> {
  return api.post<UserSubscription>("/subscriptions", body);
}

export function changePlan(subscriptionId: number, body: PlanPurchaseBody): Promise<UserSubscription> {
  return api.put<UserSubscription>(`/subscriptions/${subscriptionId}`, body);
}

export function cancelPlan(body: CancelPlanRequest): Promise<UserSubscription> {
  return api.post<UserSubscription>("/subscriptions/cancel", body);
}

/** Answers 204: the card is the subscription's, and an unpaid period was tried again with it. */
export function replaceSubscriptionCard(subscriptionId: number, body: CardChoice): Promise<void> {
  return api.put<void>(`/subscriptions/${subscriptionId}/card`, body);
}

/** Keeps the answer as the member's plan and reads the charges again. */
function useReplaceSubscription() {
  const queryClient = useQueryClient();
  const userId = useSession()?.user.id ?? 0;
  return (subscription: UserSubscription | null) => {
    queryClient.setQueryData(subscriptionKeys.current(userId), subscription);
    void queryClient.invalidateQueries({ queryKey: subscriptionKeys.member(userId) });
  };
}

/**
 * Buys (`subscriptionId` null) or changes the plan. The body is made when the mutation
 * runs, so tokenising a new card is part of it (pending and failing alike).
 */
export function useSavePlan() {
  const replace = useReplaceSubscription();
  return useMutation({
    mutationFn: async ({ subscriptionId, body }: { subscriptionId: number | null; body: () => Promise<PlanPurchaseBody> }) =>
      subscriptionId === null ? buyPlan(await body()) : changePlan(subscriptionId, await body()),
    meta: OWN_ERROR_TEXT,
    onSuccess: replace,
  });
}

export function useCancelPlan() {
  const replace = useReplaceSubscription();
  return useMutation({ mutationFn: cancelPlan, meta: OWN_ERROR_TEXT, onSuccess: replace });
}

/** Replaces a subscription's card; an unpaid period is tried again with it at once. */
export function useReplaceSubscriptionCard() {
  const queryClient = useQueryClient();
  const userId = useSession()?.user.id ?? 0;
  return useMutation({
    mutationFn: async ({ subscriptionId, body }: { subscriptionId: number; body: () => Promise<CardChoice> }) =>
      replaceSubscriptionCard(subscriptionId, await body()),
    meta: OWN_ERROR_TEXT,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: subscriptionKeys.member(userId) }),
  });
}

// 'Minhas assinaturas': the member's charges, newest first (GET /subscriptions/?where[user_id]=),
// their type 21 subscriptions (GET /user-subscribed-action) and the cancellation of one
// (POST /cancel-user-subscribed-action/{id}).
import { queryOptions, skipToken, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useSession } from "@/features/session";
import { subscriptionKeys } from "@/features/subscriptions/api/keys";
import type { SubscribedAction, SubscriptionCharge } from "@/features/subscriptions/api/types";
import { api } from "@/lib/api-client";
import { OWN_ERROR_TEXT } from "@/lib/query-client";

export function getCharges(userId: number, { signal }: { signal?: AbortSignal } = {}): Promise<SubscriptionCharge[]> {
  return api.get<SubscriptionCharge[]>(`/subscriptions/?where[user_id]=${userId}`, { signal });
}

export function useCharges() {
  const userId = useSession()?.user.id;
  return useQuery(
    queryOptions({
      queryKey: subscriptionKeys.charges(userId ?? 0),
      queryFn: userId === undefined ? skipToken : ({ signal }) => getCharges(userId, { signal }),
    }),
  );
}

export function getSubscribedActions({ signal }: { signal?: AbortSignal } = {}): Promise<SubscribedAction[]> {
  return api.get<SubscribedAction[]>("/user-subscribed-action", { signal });
}

/** The member's type 21 subscriptions (GET /user-subscribed-action): which will not renew. */
export function useSubscribedActions() {
  const userId = useSession()?.user.id;
  return useQuery(
    queryOptions({
      queryKey: subscriptionKeys.subscribedActions(userId ?? 0),
      queryFn: userId === undefined ? skipToken : ({ signal }) => getSubscribedActions({ signal }),
    }),
  );
}

export function cancelActionSubscription(subscriptionId: number, actionId: number): Promise<unknown> {
  return api.post<unknown>(`/cancel-user-subscribed-action/${subscriptionId}`, { action_id: actionId });
}

export function useCancelActionSubscription() {
  const queryClient = useQueryClient();
  const userId = useSession()?.user.id ?? 0;
  return useMutation({
    mutationFn: ({ subscriptionId, actionId }: { subscriptionId: number; actionId: number }) =>
      cancelActionSubscription(subscriptionId, actionId),
    meta: OWN_ERROR_TEXT,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: subscriptionKeys.member(userId) }),
  });
}

// 'Minhas assinaturas': the member's charges, newest first (GET /subscriptions/?where[user_id]=),
// and the cancellation of a type 21 subscription (POST /cancel-user-subscribed-action/{id}).
import { queryOptions, skipToken, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useSession } from "@/features/session";
import { subscriptionKeys } from "@/features/subscriptions/api/keys";
import type { SubscriptionCharge } from "@/features/subscriptions/api/types";
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

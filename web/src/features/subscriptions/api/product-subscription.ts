// Type 21: an activity's products (GET /action-products/{actionId}), the member's latest
// subscription to it (GET /last-action-subscription) and a new one (POST /subscribe-product-action).
import { queryOptions, skipToken, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useSession } from "@/features/session";
import { subscriptionKeys } from "@/features/subscriptions/api/keys";
import type { ProductSubscriptionBody, SubscribedAction } from "@/features/subscriptions/api/types";
import { api } from "@/lib/api-client";
import { OWN_ERROR_TEXT } from "@/lib/query-client";
import type { Product } from "@/types/api";

export function getActionProducts(actionId: number, { signal }: { signal?: AbortSignal } = {}): Promise<Product[]> {
  return api.get<Product[]>(`/action-products/${actionId}`, { signal });
}

export function useActionProducts(actionId: number) {
  const userId = useSession()?.user.id;
  return useQuery(
    queryOptions({
      queryKey: subscriptionKeys.products(userId ?? 0, actionId),
      queryFn: userId === undefined ? skipToken : ({ signal }) => getActionProducts(actionId, { signal }),
    }),
  );
}

export function getLastActionSubscription(
  actionId: number,
  { signal }: { signal?: AbortSignal } = {},
): Promise<SubscribedAction | null> {
  return api.get<SubscribedAction | null>(`/last-action-subscription?where[action_id]=${actionId}`, { signal });
}

/** The member's latest subscription to a type 21 activity, or null. */
export function useLastActionSubscription(actionId: number) {
  const userId = useSession()?.user.id;
  return useQuery(
    queryOptions({
      queryKey: subscriptionKeys.lastOfAction(userId ?? 0, actionId),
      queryFn: userId === undefined ? skipToken : ({ signal }) => getLastActionSubscription(actionId, { signal }),
    }),
  );
}

export function subscribeProduct(body: ProductSubscriptionBody): Promise<SubscribedAction> {
  return api.post<SubscribedAction>("/subscribe-product-action", body);
}

export function useSubscribeProduct() {
  const queryClient = useQueryClient();
  const userId = useSession()?.user.id ?? 0;
  return useMutation({
    mutationFn: async (body: () => Promise<ProductSubscriptionBody>) => subscribeProduct(await body()),
    meta: OWN_ERROR_TEXT,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: subscriptionKeys.member(userId) }),
  });
}

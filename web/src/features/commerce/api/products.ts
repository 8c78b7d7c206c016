// The products of a shop activity (GET /action-products/{actionId}), each with what the
// caller may still have of it (`limit`).
import { queryOptions, skipToken, useQuery } from "@tanstack/react-query";
import { commerceKeys } from "@/features/commerce/api/commerce-keys";
import { useSession } from "@/features/session";
import { api } from "@/lib/api-client";
import type { Product } from "@/types/api";

export function getActionProducts(actionId: number, { signal }: { signal?: AbortSignal } = {}): Promise<Product[]> {
  return api.get<Product[]>(`/action-products/${actionId}`, { signal });
}

export function actionProductsQueryOptions(userId: number | undefined, actionId: number) {
  return queryOptions({
    queryKey: commerceKeys.products(userId ?? 0, actionId),
    queryFn: userId === undefined ? skipToken : ({ signal }) => getActionProducts(actionId, { signal }),
  });
}

/** An activity's products; nothing is asked without an id (an address that names none). */
export function useActionProducts(actionId: number | null) {
  const userId = useSession()?.user.id;
  return useQuery(actionProductsQueryOptions(actionId === null ? undefined : userId, actionId ?? 0));
}

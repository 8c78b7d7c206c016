// The member's orders (docs/api-commerce.md): the list, newest first, and one order by id
// (GET /product-orders/?where[id]=, a list of one).
import { queryOptions, skipToken, useQuery } from "@tanstack/react-query";
import { commerceKeys } from "@/features/commerce/api/commerce-keys";
import { useSession } from "@/features/session";
import { api } from "@/lib/api-client";
import type { Order } from "@/types/api";

export function getOrders(userId: number, { signal }: { signal?: AbortSignal } = {}): Promise<Order[]> {
  return api.get<Order[]>(`/product-orders-user/${userId}`, { signal });
}

export async function getOrder(orderId: number, { signal }: { signal?: AbortSignal } = {}): Promise<Order | null> {
  const [order] = await api.get<Order[]>(`/product-orders/?where[id]=${orderId}`, { signal });
  return order ?? null;
}

export function ordersQueryOptions(userId: number | undefined) {
  return queryOptions({
    queryKey: commerceKeys.orders(userId ?? 0),
    queryFn: userId === undefined ? skipToken : ({ signal }) => getOrders(userId, { signal }),
  });
}

export function orderQueryOptions(userId: number | undefined, orderId: number) {
  return queryOptions({
    queryKey: commerceKeys.order(userId ?? 0, orderId),
    queryFn: userId === undefined ? skipToken : ({ signal }) => getOrder(orderId, { signal }),
  });
}

export function useOrders() {
  return useQuery(ordersQueryOptions(useSession()?.user.id));
}

/** One order; nothing is asked without an id (an address that names none). */
export function useOrder(orderId: number | null) {
  const userId = useSession()?.user.id;
  return useQuery(orderQueryOptions(orderId === null ? undefined : userId, orderId ?? 0));
}

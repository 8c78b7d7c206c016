// The member's vouchers and coupon purchases, and the vouchers of a paid order made on
// demand (docs/api-commerce.md, "After payment").
import { queryOptions, skipToken, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { commerceKeys } from "@/features/commerce/api/commerce-keys";
import { useSession } from "@/features/session";
import { api } from "@/lib/api-client";
import { OWN_ERROR_TEXT } from "@/lib/query-client";
import type { CouponPurchase, CreateVouchersRequest, Voucher } from "@/types/api";

export function getVouchers(userId: number, { signal }: { signal?: AbortSignal } = {}): Promise<Voucher[]> {
  return api.get<Voucher[]>(`/user-vouchers/${userId}`, { signal });
}

export function getCouponPurchases(userId: number, { signal }: { signal?: AbortSignal } = {}): Promise<CouponPurchase[]> {
  return api.get<CouponPurchase[]>(`/user-bought-cupoms/${userId}`, { signal });
}

export function createOrderVouchers(userId: number, orderId: number): Promise<Voucher[]> {
  const body: CreateVouchersRequest = { should_contact: true, product_orders: orderId, user_id: userId };
  return api.post<Voucher[]>("/create-vouchers-product-order", body);
}

export function useVouchers() {
  const userId = useSession()?.user.id;
  return useQuery(
    queryOptions({
      queryKey: commerceKeys.vouchers(userId ?? 0),
      queryFn: userId === undefined ? skipToken : ({ signal }) => getVouchers(userId, { signal }),
    }),
  );
}

export function useCouponPurchases() {
  const userId = useSession()?.user.id;
  return useQuery(
    queryOptions({
      queryKey: commerceKeys.purchases(userId ?? 0),
      queryFn: userId === undefined ? skipToken : ({ signal }) => getCouponPurchases(userId, { signal }),
    }),
  );
}

/**
 * Makes a paid order's vouchers (the server makes them once; the same list on every call).
 * Success or failure, the order and the vouchers are read again: the order page "reloads"
 * (spec 002 section 4). A failure is the screen's 'Erro ao gerar os vouchers.'.
 */
export function useCreateOrderVouchers() {
  const queryClient = useQueryClient();
  const userId = useSession()?.user.id ?? 0;
  return useMutation({
    mutationFn: (orderId: number) => createOrderVouchers(userId, orderId),
    meta: OWN_ERROR_TEXT,
    onSettled: (_vouchers, _error, orderId) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: commerceKeys.order(userId, orderId) }),
        queryClient.invalidateQueries({ queryKey: commerceKeys.vouchers(userId) }),
      ]),
  });
}


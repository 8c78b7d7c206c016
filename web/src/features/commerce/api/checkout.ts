// The checkout's calls (docs/api-commerce.md): confirming the cart makes the hold (its stock
// for 15 minutes, one expiry), a coupon is claimed into that hold, and placing the order
// pays the wallet part and leaves card or PIX pending.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { commerceKeys } from "@/features/commerce/api/commerce-keys";
import { useSession } from "@/features/session";
import { invalidateWallet } from "@/features/wallet";
import { api } from "@/lib/api-client";
import { OWN_ERROR_TEXT } from "@/lib/query-client";
import type { CouponApplied, Order, OrderCartAction, OrderPaymentForm, Reservation } from "@/types/api";

/** One activity's part of the order: its delivery choice and a "product-{id}" quantity per product. */
export type OrderCartEntry = OrderCartAction & { [product: `product-${number}`]: number };

export interface PlaceOrderBody {
  user_id: number;
  /** The hold the confirmation answered: the order is refused unless it is still live. */
  checkout_id?: number | null;
  cart: OrderCartEntry[];
  isOnlyPayment: boolean;
  payment: OrderPaymentForm | null;
  coupon_code?: string;
}

/** Holds the cart's lines (no "product-{id}" entries: the server takes the cart as it is). */
export function confirmCart(userId: number): Promise<Reservation> {
  return api.post<Reservation>("/single-product-orders", { user_id: userId });
}

export function applyCoupon(userId: number, couponCode: string, cart: OrderCartEntry[]): Promise<CouponApplied> {
  return api.post<CouponApplied>("/cart/apply-coupon", { coupon_code: couponCode, cart, user_id: userId });
}

export function placeOrder(body: PlaceOrderBody): Promise<Order> {
  return api.post<Order>("/cupom-product-order-cart", body);
}

/** Confirms the cart; a refusal (stock, limit) is the server's message under 'Erro'. */
export function useConfirmCart() {
  const userId = useSession()?.user.id ?? 0;
  return useMutation({ mutationFn: () => confirmCart(userId) });
}

/** Claims a coupon; its refusal is shown as 'Cupom inválido' by the screen, not as 'Erro'. */
export function useApplyCoupon() {
  const userId = useSession()?.user.id ?? 0;
  return useMutation({
    mutationFn: ({ code, cart }: { code: string; cart: OrderCartEntry[] }) => applyCoupon(userId, code, cart),
    meta: OWN_ERROR_TEXT,
  });
}

/**
 * Places the order; its refusal opens the failed-payment dialog. The body is made when the
 * mutation runs, so a new card's tokenising counts as part of placing it (pending, and a
 * refusal, alike). Once placed, the cart was bought, the wallet was spent and the member
 * has one more order.
 */
export function usePlaceOrder() {
  const queryClient = useQueryClient();
  const userId = useSession()?.user.id ?? 0;
  return useMutation({
    mutationFn: async (body: () => Promise<PlaceOrderBody>) => placeOrder(await body()),
    meta: OWN_ERROR_TEXT,
    onSuccess: (order) => {
      queryClient.setQueryData(commerceKeys.order(userId, order.id), order);
      void queryClient.invalidateQueries({ queryKey: commerceKeys.all(userId) });
      void invalidateWallet(queryClient, userId);
    },
  });
}

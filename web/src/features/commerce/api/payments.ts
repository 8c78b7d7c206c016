// The card and PIX calls around the order (docs/api-commerce.md, "Paying by card and PIX"):
// saved cards, installments, the coupon's removal, the sandbox's simulated PIX payment,
// and whether this deployment runs the sandbox (GET /config).
import { queryOptions, skipToken, useMutation, useQuery } from "@tanstack/react-query";
import { commerceKeys } from "@/features/commerce/api/commerce-keys";
import { useSession } from "@/features/session";
import { stationConfigQueryOptions } from "@/features/stations";
import { api } from "@/lib/api-client";
import type { InstallmentOption, Order, OrderTotals, SavedCard } from "@/types/api";

/** Whether the payments run on the sandbox: cards are tokenised by it and a PIX can be paid from the screen. */
export function useSandboxPayments(): boolean {
  return useQuery(stationConfigQueryOptions()).data?.payments_sandbox === true;
}

export function getSavedCards(userId: number, { signal }: { signal?: AbortSignal } = {}): Promise<SavedCard[]> {
  return api.get<SavedCard[]>(`/user-credit-cards/${userId}`, { signal });
}

/** The member's saved cards, asked only once a card is chosen. */
export function useSavedCards(enabled: boolean) {
  const userId = useSession()?.user.id;
  return useQuery(
    queryOptions({
      queryKey: [...commerceKeys.all(userId ?? 0), "cards"],
      queryFn: userId === undefined || !enabled ? skipToken : ({ signal }) => getSavedCards(userId, { signal }),
    }),
  );
}

export function getInstallments(actionId: number, amount: number): Promise<InstallmentOption[]> {
  return api.post<InstallmentOption[]>("/calculate-installments", { action_id: actionId, amount });
}

/** The installment options of `amount` centavos, asked only when the activity allows installments. */
export function useInstallments(actionId: number | null, amount: number, enabled: boolean) {
  const userId = useSession()?.user.id ?? 0;
  return useQuery(
    queryOptions({
      queryKey: [...commerceKeys.all(userId), "installments", actionId, amount],
      queryFn: actionId === null || !enabled || amount <= 0 ? skipToken : () => getInstallments(actionId, amount),
    }),
  );
}

/**
 * The cart's totals without holding it (step 0): what confirming it now would answer.
 * `version` (the cart's lines and quantities) makes each change a new read.
 */
export function useCartTotals(version: string, enabled: boolean) {
  const userId = useSession()?.user.id ?? 0;
  return useQuery(
    queryOptions({
      queryKey: [...commerceKeys.all(userId), "cart-totals", version],
      queryFn: enabled && version !== "" ? ({ signal }) => api.get<OrderTotals>("/cart/totals", { signal }) : skipToken,
    }),
  );
}

/** Takes the coupon off the hold (its use goes back); answers the hold's totals without it. */
export function removeCoupon(userId: number): Promise<OrderTotals> {
  return api.post<OrderTotals>("/cart/remove-coupon", { user_id: userId });
}

export function useRemoveCoupon() {
  const userId = useSession()?.user.id ?? 0;
  return useMutation({ mutationFn: () => removeCoupon(userId) });
}

/** Pays a PIX charge at the sandbox, as the payer's bank would; the order follows through the webhook. */
export function simulatePixPayment(chargeId: string): Promise<unknown> {
  return api.post<unknown>(`/sandbox/pix/${encodeURIComponent(chargeId)}/pay`, {});
}

export function useSimulatePixPayment() {
  return useMutation({ mutationFn: simulatePixPayment });
}

/** "Verificar pagamento": the server reads the charge again at the provider and answers the order. */
export function checkPayment(orderId: number): Promise<Order> {
  return api.post<Order>(`/product-orders/${orderId}/check-payment`);
}

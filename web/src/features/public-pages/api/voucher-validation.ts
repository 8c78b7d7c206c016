// The partner's validator (docs/api-commerce.md, "The partner's validator"): a signed-in
// account its partner granted reads a voucher and marks it used, once, and reads the order
// a receipt's QR code names (so may the member who bought it), and hands its lines over, once.
import { queryOptions, skipToken, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useSession } from "@/features/session";
import { api, ApiError } from "@/lib/api-client";
import { OWN_ERROR_TEXT } from "@/lib/query-client";
import type { OrderCheck, Voucher } from "@/types/api";

const validatorPath = (code: string) => `/validator/vouchers/${encodeURIComponent(code)}`;

export function validatorVoucherQueryOptions(userId: number | undefined, code: string) {
  return queryOptions({
    queryKey: ["validator", userId ?? 0, code] as const,
    queryFn: userId === undefined ? skipToken : ({ signal }) => api.get<Voucher>(validatorPath(code), { signal }),
  });
}

/** The voucher as its partner sees it; nothing is asked without a session. */
export function useValidatorVoucher(code: string) {
  return useQuery(validatorVoucherQueryOptions(useSession()?.user.id, code));
}

/** Marks the voucher used; its refusal (409 'Este voucher já foi utilizado!') is the screen's to show. */
export function useValidateVoucher(code: string) {
  const queryClient = useQueryClient();
  const userId = useSession()?.user.id;
  return useMutation({
    mutationFn: () => api.post<Voucher>(validatorPath(code)),
    meta: OWN_ERROR_TEXT,
    onSuccess: (voucher) => queryClient.setQueryData(validatorVoucherQueryOptions(userId, code).queryKey, voucher),
  });
}

export function validatorOrderQueryOptions(userId: number | undefined, code: string) {
  return queryOptions({
    queryKey: ["validator", "order", userId ?? 0, code] as const,
    queryFn:
      userId === undefined
        ? skipToken
        : ({ signal }) => api.get<OrderCheck>(`/validator/orders/${encodeURIComponent(code)}`, { signal }),
  });
}

/** The order a receipt's QR code names, as the one handing it over sees it; nothing is asked without a session. */
export function useValidatorOrder(code: string) {
  return useQuery(validatorOrderQueryOptions(useSession()?.user.id, code));
}

/**
 * Hands one line of the order over (the partner's staff, once); the answer is the order as
 * it now stands. Its refusals (409 'Este item já foi entregue.', ...) are the screen's to show.
 */
export function useHandOverLine(code: string) {
  const queryClient = useQueryClient();
  const userId = useSession()?.user.id;
  return useMutation({
    mutationFn: (lineId: number) =>
      api.post<OrderCheck>(`/validator/orders/${encodeURIComponent(code)}/lines/${lineId}/handover`),
    meta: OWN_ERROR_TEXT,
    onSuccess: (order) => queryClient.setQueryData(validatorOrderQueryOptions(userId, code).queryKey, order),
    // Handed over at another counter meanwhile: read who did it and when.
    onError: (error) => {
      if (error instanceof ApiError && error.status === 409) {
        void queryClient.invalidateQueries({ queryKey: validatorOrderQueryOptions(userId, code).queryKey });
      }
    },
  });
}

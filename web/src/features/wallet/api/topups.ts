// Money into the wallet (docs/api-wallet.md, "Top-ups"): the station's limits and bank
// details, a top-up by PIX or card (POST /user-buy-points-transaction), its PIX check, and
// the bank-transfer requests of spec 002 (POST and GET /transfer-request, type_id 5).
import { queryOptions, skipToken, useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { topUpKeys } from "@/features/wallet/api/wallet-keys";
import { invalidateWallet } from "@/features/wallet/invalidate-wallet";
import { useSession } from "@/features/session";
import { api } from "@/lib/api-client";
import { OWN_ERROR_TEXT } from "@/lib/query-client";
import type { TopUp, TopUpRequest, TopUpSettings, TransferRequest } from "@/types/api";

/** The spec's type of a bank-transfer request (spec 002, "Wallet and cards"). */
export const TRANSFER_TYPE_ID = 5;

/** How often an open PIX is read again, so a payment shows without a reload (as the shop's). */
export const TOP_UP_POLL_MS = 3000;

export function getTopUpSettings({ signal }: { signal?: AbortSignal } = {}): Promise<TopUpSettings> {
  return api.get<TopUpSettings>("/wallet/topup-settings", { signal });
}

/** The limits and what is left today: read again each time the page opens. */
export function useTopUpSettings() {
  const userId = useSession()?.user.id;
  return useQuery(
    queryOptions({
      queryKey: topUpKeys.settings(userId ?? 0),
      queryFn: userId === undefined ? skipToken : ({ signal }) => getTopUpSettings({ signal }),
    }),
  );
}

export function createTopUp(body: TopUpRequest): Promise<TopUp> {
  return api.post<TopUp>("/user-buy-points-transaction", body);
}

export function getTopUp(id: number, { signal }: { signal?: AbortSignal } = {}): Promise<TopUp> {
  return api.get<TopUp>(`/user-buy-points-transaction/${id}`, { signal });
}

/** 'Verificar pagamento': the server asks the provider and credits once if paid. */
export function checkTopUpPayment(id: number): Promise<TopUp> {
  return api.post<TopUp>(`/user-buy-points-transaction/${id}/check-payment`);
}

/** Once a top-up is credited the balance and the statement have changed. */
function refreshOnCredit(queryClient: QueryClient, userId: number, topUp: TopUp): void {
  if (topUp.status === "credited") void invalidateWallet(queryClient, userId);
}

/**
 * A top-up as it is now; while it waits for its PIX it is read again every few seconds, so
 * a payment (the bank's webhook, the sandbox's simulated one) shows without a reload.
 */
export function useTopUp(id: number | null) {
  const userId = useSession()?.user.id ?? 0;
  return useQuery(
    queryOptions({
      queryKey: topUpKeys.topUp(userId, id ?? 0),
      queryFn:
        id === null
          ? skipToken
          : async ({ client, signal }) => {
              const topUp = await getTopUp(id, { signal });
              refreshOnCredit(client, userId, topUp);
              return topUp;
            },
      refetchInterval: (query) => (query.state.data?.status === "pending" ? TOP_UP_POLL_MS : false),
    }),
  );
}

/** 'Verificar pagamento'; the page tells an unconfirmed payment itself. */
export function useCheckTopUpPayment() {
  const queryClient = useQueryClient();
  const userId = useSession()?.user.id ?? 0;
  return useMutation({
    mutationFn: checkTopUpPayment,
    meta: OWN_ERROR_TEXT,
    onSuccess: (topUp) => {
      queryClient.setQueryData(topUpKeys.topUp(userId, topUp.id), topUp);
      refreshOnCredit(queryClient, userId, topUp);
    },
  });
}

/**
 * Places a top-up. The body is made when the mutation runs, so a new card's tokenising is
 * part of it (pending and refusal alike); the page tells a refusal itself.
 */
export function useCreateTopUp() {
  const queryClient = useQueryClient();
  const userId = useSession()?.user.id ?? 0;
  return useMutation({
    mutationFn: async (body: () => Promise<TopUpRequest>) => createTopUp(await body()),
    meta: OWN_ERROR_TEXT,
    onSuccess: (topUp) => {
      queryClient.setQueryData(topUpKeys.topUp(userId, topUp.id), topUp);
      void queryClient.invalidateQueries({ queryKey: topUpKeys.settings(userId) });
      refreshOnCredit(queryClient, userId, topUp);
    },
  });
}

export function transferRequestsPath(userId: number): string {
  return `/transfer-request/?where[user_id]=${userId}`;
}

export function getTransferRequests(userId: number, { signal }: { signal?: AbortSignal } = {}): Promise<TransferRequest[]> {
  return api.get<TransferRequest[]>(transferRequestsPath(userId), { signal });
}

/** The member's bank-transfer requests, newest first ('Pedidos de transferência'). */
export function useTransferRequests() {
  const userId = useSession()?.user.id;
  return useQuery(
    queryOptions({
      queryKey: topUpKeys.transferRequests(userId ?? 0),
      queryFn: userId === undefined ? skipToken : ({ signal }) => getTransferRequests(userId, { signal }),
    }),
  );
}

export function createTransferRequest(userId: number, points: number): Promise<TransferRequest> {
  return api.post<TransferRequest>("/transfer-request", { user_id: userId, type_id: TRANSFER_TYPE_ID, points });
}

/** Asks for a bank transfer of `points` (reais); the list and today's limit are read again. */
export function useCreateTransferRequest() {
  const queryClient = useQueryClient();
  const userId = useSession()?.user.id ?? 0;
  return useMutation({
    mutationFn: (points: number) => createTransferRequest(userId, points),
    meta: OWN_ERROR_TEXT,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: topUpKeys.transferRequests(userId) });
      void queryClient.invalidateQueries({ queryKey: topUpKeys.settings(userId) });
    },
  });
}

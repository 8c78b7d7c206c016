import { queryOptions, skipToken, useQuery } from "@tanstack/react-query";
import { walletKeys } from "@/features/wallet/api/wallet-keys";
import { useSession } from "@/features/session/use-session";
import { api } from "@/lib/api-client";
import type { WalletBalance } from "@/types/api";

/** Credits arrive from background jobs, so the balance is asked for again on its own. */
export const BALANCE_REFRESH_INTERVAL_MS = 30_000;

export function getWalletBalance(userId: number, { signal }: { signal?: AbortSignal } = {}): Promise<WalletBalance> {
  return api.get<WalletBalance>(`/users-points/${userId}`, { signal });
}

/** The member's balance, refreshed every 30 s and whenever the window regains focus. */
export function walletBalanceQueryOptions(userId: number | undefined) {
  return queryOptions({
    queryKey: walletKeys.balance(userId ?? 0),
    queryFn: userId === undefined ? skipToken : ({ signal }) => getWalletBalance(userId, { signal }),
    refetchInterval: BALANCE_REFRESH_INTERVAL_MS,
    refetchOnWindowFocus: true,
  });
}

/** The signed-in member's balance. */
export function useWalletBalance() {
  const userId = useSession()?.user.id;
  return useQuery(walletBalanceQueryOptions(userId));
}

import { queryOptions, skipToken, useQuery, type QueryClient } from "@tanstack/react-query";
import { walletKeys } from "@/features/wallet/api/wallet-keys";
import { useSession } from "@/features/session";
import { api } from "@/lib/api-client";
import type { WalletBalance } from "@/types/api";

/** Credits arrive from background jobs, so the balance is asked for again on its own. */
export const BALANCE_REFRESH_INTERVAL_MS = 30_000;

export function getWalletBalance(userId: number, { signal }: { signal?: AbortSignal } = {}): Promise<WalletBalance> {
  return api.get<WalletBalance>(`/users-points/${userId}`, { signal });
}

function balanceChanged(before: WalletBalance, after: WalletBalance): boolean {
  return (
    before.points_cents !== after.points_cents ||
    before.pending_cents !== after.pending_cents ||
    before.debt_cents !== after.debt_cents
  );
}

/**
 * Reads the balance; when it differs from the one shown (a credit arrived, was released,
 * reversed or spent), the statement's lists are stale too and are asked for again.
 */
async function fetchBalance(client: QueryClient, userId: number, signal: AbortSignal): Promise<WalletBalance> {
  const before = client.getQueryData<WalletBalance>(walletKeys.balance(userId));
  const balance = await getWalletBalance(userId, { signal });
  if (before !== undefined && balanceChanged(before, balance)) {
    void client.invalidateQueries({ queryKey: walletKeys.earned(userId) });
    void client.invalidateQueries({ queryKey: walletKeys.spent(userId) });
    void client.invalidateQueries({ queryKey: walletKeys.debts(userId) });
  }
  return balance;
}

/** The member's balance, refreshed every 30 s and whenever the window regains focus. */
export function walletBalanceQueryOptions(userId: number | undefined) {
  return queryOptions({
    queryKey: walletKeys.balance(userId ?? 0),
    queryFn: userId === undefined ? skipToken : ({ client, signal }) => fetchBalance(client, userId, signal),
    refetchInterval: BALANCE_REFRESH_INTERVAL_MS,
    refetchOnWindowFocus: true,
  });
}

/** The signed-in member's balance. */
export function useWalletBalance() {
  const userId = useSession()?.user.id;
  return useQuery(walletBalanceQueryOptions(userId));
}

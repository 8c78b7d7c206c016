import type { QueryClient } from "@tanstack/react-query";
import { walletKeys } from "@/features/wallet/api/wallet-keys";

/** Asks again for the member's balance and statement, after anything that credits or spends. */
export function invalidateWallet(queryClient: QueryClient, userId: number): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: walletKeys.all(userId) });
}

// The statement's lists, 50 lines a page, newest first (docs/api-wallet.md): credits
// (earn-points-transactions), spends (use-points-transactions) and debts (wallet-debts).
import { infiniteQueryOptions, useInfiniteQuery } from "@tanstack/react-query";
import { walletKeys } from "@/features/wallet/api/wallet-keys";
import { api } from "@/lib/api-client";
import type { EarnTransaction, UseTransaction, WalletDebt } from "@/types/api";

/** A page this long may have a next one; a shorter page is the last. */
export const TRANSACTIONS_PAGE_SIZE = 50;

export function getEarnedTransactions(userId: number, page: number, { signal }: { signal?: AbortSignal } = {}) {
  return api.get<EarnTransaction[]>(`/earn-points-transactions/?where[user_id]=${userId}&page=${page}`, { signal });
}

export function getSpentTransactions(userId: number, page: number, { signal }: { signal?: AbortSignal } = {}) {
  return api.get<UseTransaction[]>(`/use-points-transactions/?where[user_id]=${userId}&page=${page}`, { signal });
}

export function getWalletDebts(userId: number, page: number, { signal }: { signal?: AbortSignal } = {}) {
  return api.get<WalletDebt[]>(`/wallet-debts/?where[user_id]=${userId}&page=${page}`, { signal });
}

function nextPage(lastPage: unknown[], _pages: unknown[], lastPageParam: number): number | undefined {
  return lastPage.length >= TRANSACTIONS_PAGE_SIZE ? lastPageParam + 1 : undefined;
}

export function earnedTransactionsQueryOptions(userId: number) {
  return infiniteQueryOptions({
    queryKey: walletKeys.earned(userId),
    queryFn: ({ pageParam, signal }) => getEarnedTransactions(userId, pageParam, { signal }),
    initialPageParam: 1,
    getNextPageParam: nextPage,
  });
}

export function spentTransactionsQueryOptions(userId: number) {
  return infiniteQueryOptions({
    queryKey: walletKeys.spent(userId),
    queryFn: ({ pageParam, signal }) => getSpentTransactions(userId, pageParam, { signal }),
    initialPageParam: 1,
    getNextPageParam: nextPage,
  });
}

export function walletDebtsQueryOptions(userId: number) {
  return infiniteQueryOptions({
    queryKey: walletKeys.debts(userId),
    queryFn: ({ pageParam, signal }) => getWalletDebts(userId, pageParam, { signal }),
    initialPageParam: 1,
    getNextPageParam: nextPage,
  });
}

export function useEarnedTransactions(userId: number) {
  return useInfiniteQuery(earnedTransactionsQueryOptions(userId));
}

export function useSpentTransactions(userId: number) {
  return useInfiniteQuery(spentTransactionsQueryOptions(userId));
}

export function useWalletDebts(userId: number) {
  return useInfiniteQuery(walletDebtsQueryOptions(userId));
}

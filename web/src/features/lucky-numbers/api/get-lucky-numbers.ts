// The member's giveaway campaigns and numbers (GET /giveaway-numbers/{userId}, the caller's own
// id; the API answers 403 for anyone else's and 404 where the station shows no lucky numbers).
import { queryOptions, useQuery } from "@tanstack/react-query";
import { useSession } from "@/features/session";
import { useStation } from "@/features/stations";
import { api } from "@/lib/api-client";
import type { GiveawayCampaign } from "@/types/api";

export const luckyNumberKeys = {
  list: (userId: number) => ["lucky-numbers", userId] as const,
};

export function getLuckyNumbers(userId: number, { signal }: { signal?: AbortSignal } = {}) {
  return api.get<GiveawayCampaign[]>(`/giveaway-numbers/${userId}`, { signal });
}

export function luckyNumbersQueryOptions(userId: number) {
  return queryOptions({
    queryKey: luckyNumberKeys.list(userId),
    queryFn: ({ signal }) => getLuckyNumbers(userId, { signal }),
  });
}

export function useLuckyNumbers() {
  const shown = useStation().lucky_numbers_access;
  // The member area renders only behind the member guard, so a session is there.
  const userId = useSession()?.user.id ?? 0;
  return useQuery({ ...luckyNumbersQueryOptions(userId), enabled: shown });
}

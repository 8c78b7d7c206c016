// The member's trophies, newest first (GET /trophies/, scoped to the caller's station and id
// as the spec's call is; the API refuses anyone else's with 403).
import { queryOptions, useQuery } from "@tanstack/react-query";
import { useSession } from "@/features/session";
import { useStation } from "@/features/stations";
import { api } from "@/lib/api-client";
import type { MemberTrophy } from "@/types/api";

export const trophyKeys = {
  list: (stationId: number, userId: number) => ["trophies", stationId, userId] as const,
};

export function getTrophies(stationId: number, userId: number, { signal }: { signal?: AbortSignal } = {}) {
  return api.get<MemberTrophy[]>(`/trophies/?where[station_id]=${stationId}&where[user_id]=${userId}`, { signal });
}

export function trophiesQueryOptions(stationId: number, userId: number) {
  return queryOptions({
    queryKey: trophyKeys.list(stationId, userId),
    queryFn: ({ signal }) => getTrophies(stationId, userId, { signal }),
  });
}

export function useTrophies() {
  const stationId = useStation().id;
  // The member area renders only behind the member guard, so a session is there.
  const userId = useSession()?.user.id ?? 0;
  return useQuery(trophiesQueryOptions(stationId, userId));
}

// Lists of activities: all of the station's, one category's, and a search by name.
import { useQuery } from "@tanstack/react-query";
import { activityKeys } from "@/features/activities/api/activity-keys";
import { useMemberScope } from "@/features/activities/api/member-scope";
import type { ActivityCard, Category } from "@/types/api";
import { api } from "@/lib/api-client";

export function useActivities() {
  const { stationId, userId } = useMemberScope();
  return useQuery({
    queryKey: activityKeys.list(stationId, userId),
    queryFn: ({ signal }) =>
      api.get<ActivityCard[]>(`/actions/?where[station_id]=${stationId}&where[user_id]=${userId}`, { signal }),
  });
}

/** One category; `null` when the station has no such category (the server answers []). */
export function useCategory(id: string) {
  const { stationId, userId } = useMemberScope();
  return useQuery({
    queryKey: activityKeys.category(stationId, userId, id),
    queryFn: async ({ signal }) => {
      const found = await api.get<Category[]>(
        `/participant-categories/?where[station_id]=${stationId}&where[user_id]=${userId}&where[id]=${encodeURIComponent(id)}`,
        { signal },
      );
      return found[0] ?? null;
    },
  });
}

export function useActivitySearch(term: string) {
  const { stationId, userId } = useMemberScope();
  return useQuery({
    queryKey: activityKeys.search(stationId, userId, term),
    queryFn: ({ signal }) =>
      api.get<ActivityCard[]>(
        `/actions-by-name/?where[name]=${encodeURIComponent(term)}&where[user_id]=${userId}&where[station_id]=${stationId}`,
        { signal },
      ),
    enabled: term.trim() !== "",
  });
}

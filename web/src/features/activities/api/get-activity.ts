// One activity: a member's view of it, and a visitor's (public, no token needed).
import { useQuery } from "@tanstack/react-query";
import { activityKeys } from "@/features/activities/api/activity-keys";
import { useMemberScope } from "@/features/activities/api/member-scope";
import { useStation } from "@/features/stations";
import { api } from "@/lib/api-client";
import type { Activity } from "@/types/api";

/** A Lottie animation's JSON, read only by the player. */
type LottieAnimation = Record<string, unknown>;

export function useActivity(id: string) {
  const { userId } = useMemberScope();
  return useQuery({
    queryKey: activityKeys.detail(userId, id),
    queryFn: ({ signal }) => api.get<Activity>(`/actions/${encodeURIComponent(id)}/?where[user_id]=${userId}`, { signal }),
  });
}

export function usePublicActivity(id: string) {
  const stationId = useStation().id;
  return useQuery({
    queryKey: activityKeys.publicDetail(stationId, id),
    queryFn: ({ signal }) => api.get<Activity>(`/public-actions/${encodeURIComponent(id)}/${stationId}`, { signal }),
  });
}

/** A feedback animation; the server lets it be cached for a day, so it never goes stale here. */
export function useLottieAnimation(id: number | null) {
  return useQuery({
    queryKey: activityKeys.lottie(id ?? 0),
    queryFn: ({ signal }) => api.get<LottieAnimation>(`/lottie-files/${id ?? 0}`, { signal }),
    enabled: id !== null,
    staleTime: Infinity,
  });
}

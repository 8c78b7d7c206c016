// The visitors' featured carousel on the landing page: the station's public featured
// activities, by carousel priority (no token).
import { useQuery } from "@tanstack/react-query";
import { activityKeys } from "@/features/activities/api/activity-keys";
import { useStation } from "@/features/stations";
import { api } from "@/lib/api-client";
import type { ActivityCard } from "@/types/api";

/** The most slides the landing shows: at 5 s each, more would not be seen. */
export const PUBLIC_FEATURED_LIMIT = 10;

export function usePublicFeaturedActivities() {
  const stationId = useStation().id;
  return useQuery({
    queryKey: activityKeys.publicFeatured(stationId),
    queryFn: ({ signal }) =>
      api.get<ActivityCard[]>(`/public-actions/${stationId}?where[featuredPublic]=1&limit=${PUBLIC_FEATURED_LIMIT}`, {
        signal,
      }),
  });
}

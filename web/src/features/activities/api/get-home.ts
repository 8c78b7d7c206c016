// The home's rows: the featured carousel, now-playing rows, journeys and categories.
import { useQuery } from "@tanstack/react-query";
import { activityKeys } from "@/features/activities/api/activity-keys";
import { categoryPath } from "@/features/activities/api/get-activities";
import { useMemberScope } from "@/features/activities/api/member-scope";
import type { ActivityCard, Category, Journey, NowPlaying } from "@/types/api";
import { api } from "@/lib/api-client";
import { pagePath } from "@/lib/paging";

/** A category row shows 4 cards (spec 001 "Home"): the server sends no more, and counts them all. */
export const CATEGORY_ROW_SIZE = 4;

/** A category's carousel (a desk's landing, spec 002) shows its first 10 activities. */
export const CATEGORY_CAROUSEL_SIZE = 10;

export function useFeaturedActivities() {
  const { stationId, userId } = useMemberScope();
  return useQuery({
    queryKey: activityKeys.featured(stationId, userId),
    queryFn: ({ signal }) =>
      api.get<ActivityCard[]>(
        `/actions/?where[featuredPrivate]=1&where[station_id]=${stationId}&where[user_id]=${userId}`,
        { signal },
      ),
  });
}

export function useNowPlaying() {
  const { userId } = useMemberScope();
  return useQuery({
    queryKey: activityKeys.nowPlaying(userId),
    queryFn: ({ signal }) => api.get<NowPlaying[]>("/now-playing", { signal }),
  });
}

export function useJourneys() {
  const { userId } = useMemberScope();
  return useQuery({
    queryKey: activityKeys.journeys(userId),
    queryFn: ({ signal }) => api.get<Journey[]>("/journeys", { signal }),
  });
}

export function useCategories() {
  const { stationId, userId } = useMemberScope();
  return useQuery({
    queryKey: activityKeys.categories(stationId, userId),
    queryFn: ({ signal }) =>
      api.get<Category[]>(
        pagePath(`/participant-categories/?where[station_id]=${stationId}&where[user_id]=${userId}`, {
          limit: CATEGORY_ROW_SIZE,
          offset: 0,
        }),
        { signal },
      ),
  });
}

/** One category and its first activities, for a carousel; null when the station has no such category. */
export function useCategoryCarousel(categoryId: number) {
  const { stationId, userId } = useMemberScope();
  return useQuery({
    queryKey: activityKeys.carousel(stationId, userId, categoryId),
    queryFn: async ({ signal }) => {
      const found = await api.get<Category[]>(
        pagePath(categoryPath(stationId, userId, categoryId), { limit: CATEGORY_CAROUSEL_SIZE, offset: 0 }),
        { signal },
      );
      return found[0] ?? null;
    },
  });
}

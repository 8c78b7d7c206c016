// Lists of activities, read a page at a time: all of the station's, one category's, and a
// search by name (the server ignores case and accents).
import { useInfiniteQuery, type QueryKey } from "@tanstack/react-query";
import { activityKeys } from "@/features/activities/api/activity-keys";
import { useMemberScope } from "@/features/activities/api/member-scope";
import type { ActivityCard, Category } from "@/types/api";
import { api } from "@/lib/api-client";
import { getPage, nextPageOffset, pagePath, type Page, type PageRequest } from "@/lib/paging";

/** The list pages' page: 24 cards, 6 lines of 4 on a desktop, 12 of 2 on a phone. */
export const ACTIVITIES_PAGE_SIZE = 24;

/** A page of a category: its activities, and the category itself (null when the station has none such). */
export interface CategoryPage extends Page<ActivityCard> {
  category: Pick<Category, "id" | "name" | "icon"> | null;
}

function usePagedActivities<P extends Page<ActivityCard>>(
  queryKey: QueryKey,
  fetchPage: (request: PageRequest) => Promise<P>,
  enabled = true,
) {
  return useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam, signal }) => fetchPage({ limit: ACTIVITIES_PAGE_SIZE, offset: pageParam, signal }),
    initialPageParam: 0,
    getNextPageParam: (_last: P, pages: P[]) => nextPageOffset(pages),
    enabled,
  });
}

export function useActivities({ enabled = true }: { enabled?: boolean } = {}) {
  const { stationId, userId } = useMemberScope();
  return usePagedActivities(
    activityKeys.list(stationId, userId),
    (request) => getPage<ActivityCard>(`/actions/?where[station_id]=${stationId}&where[user_id]=${userId}`, request),
    enabled,
  );
}

/** Activities whose name holds `term`; nothing is asked for an empty term. */
export function useActivitySearch(term: string) {
  const { stationId, userId } = useMemberScope();
  return usePagedActivities(
    activityKeys.search(stationId, userId, term),
    (request) =>
      getPage<ActivityCard>(
        `/actions-by-name/?where[name]=${encodeURIComponent(term)}&where[user_id]=${userId}&where[station_id]=${stationId}`,
        request,
      ),
    term !== "",
  );
}

/** The call for one category of the member's station, its activities paged within it. */
export function categoryPath(stationId: number, userId: number, id: string | number): string {
  return `/participant-categories/?where[station_id]=${stationId}&where[user_id]=${userId}&where[id]=${encodeURIComponent(id)}`;
}

/** One category, its activities a page at a time (the server pages them within the category). */
export function useCategory(id: string) {
  const { stationId, userId } = useMemberScope();
  return usePagedActivities(activityKeys.category(stationId, userId, id), async ({ signal, ...page }) => {
    const found = await api.get<Category[]>(pagePath(categoryPath(stationId, userId, id), page), { signal });
    const category = found[0];
    if (!category) return { category: null, items: [], total: 0 };
    const { category_actions, actions_count, ...rest } = category;
    return { category: rest, items: category_actions.map(({ action }) => action), total: actions_count };
  });
}

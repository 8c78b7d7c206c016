// The station's news (docs/decisions.md, "Station content"): GET /news/?where[station_id]=
// a page at a time, newest first; GET /news/{id} with its sanitised body.
import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { contentKeys } from "@/features/content/api/content-keys";
import { useStation } from "@/features/stations";
import { api } from "@/lib/api-client";
import { getPage, nextPageOffset, type Page } from "@/lib/paging";
import type { News, NewsCard } from "@/types/api";

export const NEWS_PAGE_SIZE = 12;

export const newsListPath = (stationId: number) => `/news/?where[station_id]=${stationId}`;

export function newsQueryOptions(stationId: number) {
  return infiniteQueryOptions({
    queryKey: contentKeys.news(stationId),
    queryFn: ({ pageParam, signal }): Promise<Page<NewsCard>> =>
      getPage<NewsCard>(newsListPath(stationId), { limit: NEWS_PAGE_SIZE, offset: pageParam, signal }),
    initialPageParam: 0,
    getNextPageParam: (_last, pages) => nextPageOffset(pages),
  });
}

export function useNews() {
  return useInfiniteQuery(newsQueryOptions(useStation().id));
}

export function newsItemQueryOptions(id: number) {
  return queryOptions({
    queryKey: contentKeys.newsItem(id),
    queryFn: ({ signal }) => api.get<News>(`/news/${id}`, { signal }),
  });
}

export function useNewsItem(id: number) {
  return useQuery({ ...newsItemQueryOptions(id), enabled: Number.isInteger(id) && id > 0 });
}

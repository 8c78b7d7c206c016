// The station's transparency documents ('Prestação de contas'): GET /transparency a page at a
// time, each with the year the server read from its name, grouped here by year (spec 002
// section 9). The server orders them newest year first (those without a year last), so a
// year's documents are consecutive and a later page only continues the last year shown or
// starts older ones.
import { infiniteQueryOptions, useInfiniteQuery } from "@tanstack/react-query";
import { contentKeys } from "@/features/content/api/content-keys";
import { useStation } from "@/features/stations";
import { getPage, nextPageOffset, type Page } from "@/lib/paging";
import type { TransparencyDocument } from "@/types/api";

export const TRANSPARENCY_PAGE_SIZE = 50;

export const TRANSPARENCY_PATH = "/transparency";

export function transparencyQueryOptions(stationId: number) {
  return infiniteQueryOptions({
    queryKey: contentKeys.transparency(stationId),
    queryFn: ({ pageParam, signal }): Promise<Page<TransparencyDocument>> =>
      getPage<TransparencyDocument>(TRANSPARENCY_PATH, { limit: TRANSPARENCY_PAGE_SIZE, offset: pageParam, signal }),
    initialPageParam: 0,
    getNextPageParam: (_last, pages) => nextPageOffset(pages),
  });
}

export function useTransparency() {
  return useInfiniteQuery(transparencyQueryOptions(useStation().id));
}

export interface YearGroup {
  /** The year as the documents' names give it; null for names without one. */
  year: string | null;
  documents: TransparencyDocument[];
}

/**
 * The documents by year, in the server's order: each year where its first document stands,
 * so the pages loaded so far, concatenated, group as the whole list will.
 */
export function groupByYear(documents: readonly TransparencyDocument[]): YearGroup[] {
  const groups = new Map<string | null, TransparencyDocument[]>();
  for (const document of documents) {
    const year = document.year ?? null;
    const group = groups.get(year);
    if (group) group.push(document);
    else groups.set(year, [document]);
  }
  return [...groups.entries()].map(([year, grouped]) => ({ year, documents: grouped }));
}

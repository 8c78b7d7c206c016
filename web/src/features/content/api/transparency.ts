// The station's transparency documents ('Prestação de contas'): GET /transparency, each with
// the year the server read from its name, grouped here newest year first (spec 002 section 9).
import { queryOptions, useQuery } from "@tanstack/react-query";
import { contentKeys } from "@/features/content/api/content-keys";
import { useStation } from "@/features/stations";
import { api } from "@/lib/api-client";
import type { TransparencyDocument } from "@/types/api";

export function transparencyQueryOptions(stationId: number) {
  return queryOptions({
    queryKey: contentKeys.transparency(stationId),
    queryFn: ({ signal }) => api.get<TransparencyDocument[]>("/transparency", { signal }),
  });
}

export function useTransparency() {
  return useQuery(transparencyQueryOptions(useStation().id));
}

export interface YearGroup {
  /** The year as the documents' names give it; null for names without one. */
  year: string | null;
  documents: TransparencyDocument[];
}

/** The documents by year, newest first (numbers compared as numbers), those without a year last. */
export function groupByYear(documents: readonly TransparencyDocument[]): YearGroup[] {
  const groups = new Map<string | null, TransparencyDocument[]>();
  for (const document of documents) {
    const year = document.year ?? null;
    groups.set(year, [...(groups.get(year) ?? []), document]);
  }
  return [...groups.entries()]
    .map(([year, grouped]) => ({ year, documents: grouped }))
    .sort((a, b) => {
      if (a.year === null) return 1;
      if (b.year === null) return -1;
      return b.year.localeCompare(a.year, "pt-BR", { numeric: true });
    });
}

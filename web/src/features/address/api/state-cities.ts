// A state's cities, asked from our API (`GET /states/{uf}/cities`), which asks its
// IBGE-like provider and caches the list: the browser calls no third party
// (docs/decisions.md). Only one of the 27 states is asked for.
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import { isBrazilianState } from "@/lib/brazilian-states";
import { SESSION_INDEPENDENT } from "@/lib/query-client";
import type { StateCity } from "@/types/api";

export function citiesPath(uf: string): string {
  return `/states/${encodeURIComponent(uf)}/cities`;
}

export function getStateCities(uf: string, { signal }: { signal?: AbortSignal } = {}): Promise<StateCity[]> {
  return api.get<StateCity[]>(citiesPath(uf), { signal });
}

export function stateCitiesQueryOptions(uf: string) {
  return queryOptions({
    queryKey: ["state-cities", uf],
    queryFn: ({ signal }) => getStateCities(uf, { signal }),
    enabled: isBrazilianState(uf),
    // Cities change by law, a few a decade: one list per state for the whole visit.
    staleTime: Infinity,
    // A failure falls back to a typed city at once rather than keep the member waiting,
    // and the field stays typed: a list arriving later would clear a city being typed.
    retry: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    meta: SESSION_INDEPENDENT,
  });
}

/** The cities of `uf` (a sigla, or "" for none chosen yet), sorted as the server sorts them. */
export function useStateCities(uf: string) {
  return useQuery(stateCitiesQueryOptions(uf));
}

import { queryOptions, skipToken } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import { SESSION_INDEPENDENT } from "@/lib/query-client";
import type { Station } from "@/types/api";

const STATION_STALE_TIME_MS = 5 * 60 * 1000;

export function getStation(stationId: number, { signal }: { signal?: AbortSignal } = {}): Promise<Station> {
  return api.get<Station>(`/stations/${stationId}`, { signal });
}

/** Waits (skipToken) while the station id is not known yet. */
export function stationQueryOptions(stationId: number | undefined) {
  return queryOptions({
    queryKey: ["stations", stationId],
    queryFn: stationId === undefined ? skipToken : ({ signal }) => getStation(stationId, { signal }),
    staleTime: STATION_STALE_TIME_MS,
    meta: SESSION_INDEPENDENT,
  });
}

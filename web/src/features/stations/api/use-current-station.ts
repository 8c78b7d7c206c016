import { useQuery } from "@tanstack/react-query";
import { stationConfigQueryOptions } from "@/features/stations/api/get-station-config";
import { stationQueryOptions } from "@/features/stations/api/get-station";
import type { Station } from "@/types/api";

export type CurrentStationState =
  | { status: "loading" }
  | { status: "error"; retry: () => void }
  | { status: "ready"; station: Station };

/** The station of this host: /api/config first, then /api/stations/{id}. */
export function useCurrentStation(): CurrentStationState {
  const configQuery = useQuery(stationConfigQueryOptions());
  const stationQuery = useQuery(stationQueryOptions(configQuery.data?.station_id));

  if (stationQuery.data) return { status: "ready", station: stationQuery.data };

  const failedQuery = [configQuery, stationQuery].find((query) => query.isError);
  if (failedQuery && !failedQuery.isFetching) {
    return { status: "error", retry: () => void failedQuery.refetch() };
  }
  return { status: "loading" };
}

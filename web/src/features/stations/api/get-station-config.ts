import { queryOptions } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import { SESSION_INDEPENDENT } from "@/lib/query-client";
import type { StationConfig } from "@/types/api";

/** Which station this host name belongs to; the server decides from the Host header. */
export function getStationConfig({ signal }: { signal?: AbortSignal } = {}): Promise<StationConfig> {
  return api.get<StationConfig>("/config", { signal });
}

export function stationConfigQueryOptions() {
  return queryOptions({
    queryKey: ["config"],
    queryFn: ({ signal }) => getStationConfig({ signal }),
    staleTime: Infinity,
    meta: SESSION_INDEPENDENT,
  });
}

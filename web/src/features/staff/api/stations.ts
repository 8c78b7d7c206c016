import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { invalidateOpsData, opsKeys } from "@/features/staff/api/ops-keys";
import { api } from "@/lib/api-client";
import type { OpsStation } from "@/types/api";

const STATIONS_REFRESH_INTERVAL_MS = 30_000;

export function getOpsStations({ signal }: { signal?: AbortSignal } = {}): Promise<OpsStation[]> {
  return api.get<OpsStation[]>("/ops/stations", { signal });
}

export function opsStationsQueryOptions() {
  return queryOptions({
    queryKey: opsKeys.stations,
    queryFn: ({ signal }) => getOpsStations({ signal }),
    refetchInterval: STATIONS_REFRESH_INTERVAL_MS,
  });
}

/** The stations in scope; `enabled: false` asks nothing (a caller that may not need them). */
export function useOpsStations({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...opsStationsQueryOptions(), enabled });
}

/** Enqueues a cashback release of one station now; answers the release job's id. */
export function releaseStation(stationId: number): Promise<{ job_id: string }> {
  return api.post<{ job_id: string }>(`/ops/stations/${stationId}/release`);
}

export function useReleaseStation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: releaseStation,
    onSettled: () => invalidateOpsData(queryClient),
  });
}

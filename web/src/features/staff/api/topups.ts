// A station's top-ups (docs/api-wallet.md, "Console"): money members put into the wallet by
// PIX, card or bank transfer. Support staff confirm a pending transfer or a top-up under
// review, reject one, or refund a credited PIX or card top-up (all audited).
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { invalidateOpsData, opsKeys } from "@/features/staff/api/ops-keys";
import { api } from "@/lib/api-client";
import type { OpsTopUp, TopUpMethod, TopUpStatus } from "@/types/api";

export type { OpsTopUp };
export type OpsTopUpMethod = TopUpMethod;
export type OpsTopUpStatus = TopUpStatus;

/** The list's filters; null is every one. */
export interface OpsTopUpFilter {
  status: OpsTopUpStatus | null;
  method: OpsTopUpMethod | null;
}

/** A decision staff may take (the route's last segment). */
export type OpsTopUpAction = "confirm" | "reject" | "refund";

/** The most top-ups one answer holds (api/src/routes/staff/topups.rs, LIMIT). */
export const TOP_UPS_LIMIT = 200;

/** Transfers are paid outside and PIX webhooks arrive: the list asks again on its own. */
export const TOP_UPS_REFRESH_INTERVAL_MS = 15_000;

export function topUpsPath(stationId: number, filter: OpsTopUpFilter): string {
  const query = new URLSearchParams();
  if (filter.status) query.set("status", filter.status);
  if (filter.method) query.set("method", filter.method);
  const search = query.toString();
  return `/ops/stations/${stationId}/topups${search === "" ? "" : `?${search}`}`;
}

export function getStationTopUps(stationId: number, filter: OpsTopUpFilter, { signal }: { signal?: AbortSignal } = {}): Promise<OpsTopUp[]> {
  return api.get<OpsTopUp[]>(topUpsPath(stationId, filter), { signal });
}

/** The station's newest top-ups; nothing is asked without a station. */
export function useStationTopUps(stationId: number | null, filter: OpsTopUpFilter) {
  return useQuery({
    ...queryOptions({
      queryKey: opsKeys.topUps(stationId ?? 0, filter),
      queryFn: ({ signal }) => getStationTopUps(stationId ?? 0, filter, { signal }),
      refetchInterval: TOP_UPS_REFRESH_INTERVAL_MS,
    }),
    enabled: stationId !== null,
  });
}

export function actOnTopUp(id: number, action: OpsTopUpAction): Promise<OpsTopUp> {
  return api.post<OpsTopUp>(`/ops/topups/${id}/${action}`);
}

/** Confirms, rejects or refunds one top-up; the list and the audit log are read again. */
export function useTopUpAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: number; action: OpsTopUpAction }) => actOnTopUp(id, action),
    onSettled: () => invalidateOpsData(queryClient),
  });
}

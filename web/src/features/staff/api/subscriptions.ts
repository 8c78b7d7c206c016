// A station's subscriptions with their periods and tries (docs/api-subscriptions.md,
// "Console"); support staff try an unpaid renewal now or cancel one (both audited).
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { invalidateOpsData, opsKeys } from "@/features/staff/api/ops-keys";
import { api } from "@/lib/api-client";
import type { components } from "@/types/openapi.gen";

type Schemas = components["schemas"];
export type OpsSubscription = Schemas["ConsoleSubscription"];
export type OpsSubscriptionPeriod = Schemas["ConsoleSubscriptionPeriod"];
export type OpsSubscriptionTry = Schemas["ConsoleSubscriptionTry"];

/** A retried charge runs in a job: the list asks again on its own to show how it went. */
export const SUBSCRIPTIONS_REFRESH_INTERVAL_MS = 10_000;

export function subscriptionsPath(stationId: number, userId: number | null): string {
  const base = `/ops/stations/${stationId}/subscriptions`;
  return userId === null ? base : `${base}?${new URLSearchParams({ user_id: String(userId) }).toString()}`;
}

export function getStationSubscriptions(
  stationId: number,
  userId: number | null,
  { signal }: { signal?: AbortSignal } = {},
): Promise<OpsSubscription[]> {
  return api.get<OpsSubscription[]>(subscriptionsPath(stationId, userId), { signal });
}

export function stationSubscriptionsQueryOptions(stationId: number, userId: number | null) {
  return queryOptions({
    queryKey: opsKeys.subscriptions(stationId, userId),
    queryFn: ({ signal }) => getStationSubscriptions(stationId, userId, { signal }),
    refetchInterval: SUBSCRIPTIONS_REFRESH_INTERVAL_MS,
  });
}

/** The station's newest subscriptions (one member's with `userId`); nothing is asked without a station. */
export function useStationSubscriptions(stationId: number | null, userId: number | null) {
  return useQuery({
    ...stationSubscriptionsQueryOptions(stationId ?? 0, userId),
    enabled: stationId !== null,
  });
}

export type SubscriptionAction = "retry" | "cancel";

/** 202 (retry) or 204 (cancel): no body either way. */
export function actOnSubscription(id: number, action: SubscriptionAction): Promise<void> {
  return api.post<void>(`/ops/subscriptions/${id}/${action}`);
}

/** Retries or cancels one subscription; the list and the audit log are read again. */
export function useSubscriptionAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: number; action: SubscriptionAction }) => actOnSubscription(id, action),
    onSettled: () => invalidateOpsData(queryClient),
  });
}

import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { invalidateOpsData, opsKeys } from "@/features/staff/api/ops-keys";
import { api } from "@/lib/api-client";
import type { OpsQueue } from "@/types/api";

/** Counts move as workers run, so the overview asks again while it is open. */
export const QUEUES_REFRESH_INTERVAL_MS = 5000;

export function getQueues({ signal }: { signal?: AbortSignal } = {}): Promise<OpsQueue[]> {
  return api.get<OpsQueue[]>("/ops/queues", { signal });
}

export function queuesQueryOptions() {
  return queryOptions({
    queryKey: opsKeys.queues,
    queryFn: ({ signal }) => getQueues({ signal }),
    refetchInterval: QUEUES_REFRESH_INTERVAL_MS,
  });
}

export function useQueues() {
  return useQuery(queuesQueryOptions());
}

export type QueueAction = "pause" | "resume";

export function changeQueue(name: string, action: QueueAction): Promise<OpsQueue> {
  return api.post<OpsQueue>(`/ops/queues/${encodeURIComponent(name)}/${action}`);
}

/** Pauses or resumes a queue (staff of every station with role support only). */
export function useChangeQueue() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ name, action }: { name: string; action: QueueAction }) => changeQueue(name, action),
    onSettled: () => invalidateOpsData(queryClient),
  });
}

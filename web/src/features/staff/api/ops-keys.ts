import type { QueryClient } from "@tanstack/react-query";
import type { OpsSupportStatus } from "@/features/staff/api/support";
import type { OpsTopUpFilter } from "@/features/staff/api/topups";
import type { OpsJobFilter } from "@/types/api";

export const opsKeys = {
  all: ["ops"] as const,
  me: ["ops", "me"] as const,
  queues: ["ops", "queues"] as const,
  stations: ["ops", "stations"] as const,
  jobs: ["ops", "jobs"] as const,
  jobList: (filter: OpsJobFilter, before: string | null) => ["ops", "jobs", "list", filter, before] as const,
  job: (id: string) => ["ops", "jobs", "detail", id] as const,
  rerunnable: (filter: OpsJobFilter) => ["ops", "jobs", "rerunnable", filter] as const,
  audit: (page: number) => ["ops", "audit", page] as const,
  subscriptions: (stationId: number, userId: number | null) => ["ops", "subscriptions", stationId, userId] as const,
  topUps: (stationId: number, filter: OpsTopUpFilter) => ["ops", "topups", stationId, filter] as const,
  supportMessages: (stationId: number, status: OpsSupportStatus | null, page: number) =>
    ["ops", "support", stationId, status, page] as const,
};

/** Every staff action changes jobs, counts and the audit log: refresh all but who is signed in. */
export function invalidateOpsData(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({
    queryKey: opsKeys.all,
    predicate: (query) => query.queryKey[1] !== "me",
  });
}

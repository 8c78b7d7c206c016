import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { invalidateOpsData, opsKeys } from "@/features/staff/api/ops-keys";
import { isFinalJobState } from "@/features/jobs";
import { api, ApiError } from "@/lib/api-client";
import type {
  OpsBulkRerunAnswer,
  OpsJobDetail,
  OpsJobFilter,
  OpsJobList,
  OpsJobSummary,
  OpsRerunnableCount,
} from "@/types/api";

/** The job list asks again on its own while it is open. */
export const JOB_LIST_REFRESH_INTERVAL_MS = 5000;
/** A job that may still change is watched closely; a final one only in case someone re-runs it. */
export const ACTIVE_JOB_REFRESH_INTERVAL_MS = 2000;
export const FINAL_JOB_REFRESH_INTERVAL_MS = 5000;

/** The list query in a fixed order: queue, state, from, to, q, station_id, before (the page's cursor). */
export function jobListSearch(filter: OpsJobFilter, before: string | null): string {
  const params = new URLSearchParams();
  for (const key of ["queue", "state", "from", "to", "q"] as const) {
    const value = filter[key];
    if (value) params.set(key, value);
  }
  if (filter.station_id !== undefined) params.set("station_id", String(filter.station_id));
  if (before !== null) params.set("before", before);
  return params.toString();
}

export function getJobList(filter: OpsJobFilter, before: string | null, { signal }: { signal?: AbortSignal } = {}) {
  const search = jobListSearch(filter, before);
  return api.get<OpsJobList>(search === "" ? "/ops/jobs" : `/ops/jobs?${search}`, { signal });
}

export function jobListQueryOptions(filter: OpsJobFilter, before: string | null) {
  return queryOptions({
    queryKey: opsKeys.jobList(filter, before),
    queryFn: ({ signal }) => getJobList(filter, before, { signal }),
    refetchInterval: JOB_LIST_REFRESH_INTERVAL_MS,
    placeholderData: keepPreviousData,
  });
}

export function useJobList(filter: OpsJobFilter, before: string | null) {
  return useQuery(jobListQueryOptions(filter, before));
}

/** The most jobs one bulk re-run touches (the server's bound); the count goes up to one more. */
export const BULK_RERUN_MAX = 10000;

/**
 * How many jobs a re-run of the filter would touch. Asked when the bulk re-run opens, not
 * with the list: the server reads every re-runnable job of the filter to count them.
 */
export function useRerunnableCount(filter: OpsJobFilter) {
  return useQuery({
    queryKey: opsKeys.rerunnable(filter),
    queryFn: ({ signal }) => {
      const search = jobListSearch(filter, null);
      return api.get<OpsRerunnableCount>(search === "" ? "/ops/jobs/rerunnable" : `/ops/jobs/rerunnable?${search}`, {
        signal,
      });
    },
    // Counted afresh each time the dialog opens: the count is what the staff member confirms.
    gcTime: 0,
  });
}

export function getOpsJob(id: string, { signal }: { signal?: AbortSignal } = {}): Promise<OpsJobDetail> {
  return api.get<OpsJobDetail>(`/ops/jobs/${encodeURIComponent(id)}`, { signal });
}

/** How soon to ask for a job again; never for one that does not exist (or is out of scope). */
export function jobRefreshInterval({ data, error }: { data?: OpsJobDetail; error: Error | null }): number | false {
  if (error instanceof ApiError && error.status === 404) return false;
  return isFinalJobState(data?.state) ? FINAL_JOB_REFRESH_INTERVAL_MS : ACTIVE_JOB_REFRESH_INTERVAL_MS;
}

export function opsJobQueryOptions(id: string) {
  return queryOptions({
    queryKey: opsKeys.job(id),
    queryFn: ({ signal }) => getOpsJob(id, { signal }),
    refetchInterval: (query) => jobRefreshInterval(query.state),
  });
}

export function useOpsJob(id: string) {
  return useQuery(opsJobQueryOptions(id));
}

export type JobAction = "rerun" | "cancel";

export function actOnJob(id: string, action: JobAction): Promise<OpsJobSummary> {
  return api.post<OpsJobSummary>(`/ops/jobs/${encodeURIComponent(id)}/${action}`);
}

/** Re-runs or cancels one job; a 409 (its state does not allow it) ends in the error toast. */
export function useJobAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: JobAction }) => actOnJob(id, action),
    onSettled: () => invalidateOpsData(queryClient),
  });
}

/** A bulk re-run either ran, or found the selection changed and touched nothing. */
export type BulkRerunOutcome =
  | { kind: "done"; rerun: number; jobIds: string[] }
  | { kind: "changed"; count: number; message: string };

function changedCountOf(error: unknown): { count: number; message: string } | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  const { body } = error;
  if (typeof body !== "object" || body === null || !("count" in body)) return null;
  return typeof body.count === "number" ? { count: body.count, message: error.message } : null;
}

/**
 * Re-runs every re-runnable job of the filter, provided there are still `expected` of them.
 * The server's 409 with the new count is an answer to show (and confirm again), not a failure.
 */
export async function bulkRerun(filter: OpsJobFilter, expected: number): Promise<BulkRerunOutcome> {
  try {
    const answer = await api.post<OpsBulkRerunAnswer>("/ops/jobs/rerun", { filter, expected });
    return { kind: "done", rerun: answer.rerun, jobIds: answer.job_ids };
  } catch (error) {
    const changed = changedCountOf(error);
    if (changed === null) throw error;
    return { kind: "changed", ...changed };
  }
}

export function useBulkRerun() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ filter, expected }: { filter: OpsJobFilter; expected: number }) => bulkRerun(filter, expected),
    onSettled: () => invalidateOpsData(queryClient),
  });
}

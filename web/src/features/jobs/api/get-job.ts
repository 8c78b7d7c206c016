import { queryOptions, skipToken, useQuery, type QueryState } from "@tanstack/react-query";
import { api, ApiError, toastForError } from "@/lib/api-client";
import type { FinalJobState, Job, JobState, PendingJobState } from "@/types/api";

/** How often a job that is not final is asked for again. */
export const DEFAULT_JOB_POLL_INTERVAL_MS = 1000;

export const PENDING_JOB_STATES: ReadonlySet<JobState> = new Set<PendingJobState>([
  "queued",
  "scheduled",
  "running",
  "retrying",
]);

export const FINAL_JOB_STATES: ReadonlySet<JobState> = new Set<FinalJobState>(["succeeded", "failed", "cancelled"]);

/** Whether a job in this state will never change again. */
export function isFinalJobState(state: JobState | null | undefined): state is FinalJobState {
  return state != null && FINAL_JOB_STATES.has(state);
}

export function getJob(id: string, { signal }: { signal?: AbortSignal } = {}): Promise<Job> {
  return api.get<Job>(`/jobs/${encodeURIComponent(id)}`, { signal });
}

/** A 4xx (an unknown job, or another member's) will not answer differently if asked again. */
function isClientError(error: Error | null): boolean {
  return error instanceof ApiError && error.status >= 400 && error.status < 500;
}

function pollInterval({ data, error }: QueryState<Job, Error>, intervalMs: number): number | false {
  if (isFinalJobState(data?.state)) return false;
  if (isClientError(error)) return false;
  return intervalMs;
}

export interface JobPollingOptions {
  /** Time between two requests while the job is not final; 1000 ms unless told. */
  intervalMs?: number;
}

/**
 * Asks for the job every `intervalMs` until its state is final, and waits (skipToken) while
 * there is no id. A final job never goes stale, so focus, reconnection or a new mount do not
 * ask for it again.
 */
export function jobQueryOptions(
  id: string | null | undefined,
  { intervalMs = DEFAULT_JOB_POLL_INTERVAL_MS }: JobPollingOptions = {},
) {
  return queryOptions({
    queryKey: ["jobs", id],
    queryFn: id ? ({ signal }) => getJob(id, { signal }) : skipToken,
    staleTime: (query) => (isFinalJobState(query.state.data?.state) ? Infinity : 0),
    refetchInterval: (query) => pollInterval(query.state, intervalMs),
  });
}

export interface JobStateView {
  job: Job | undefined;
  state: JobState | null;
  isFinal: boolean;
  progress: number | null;
  /** The job's answer once it succeeded; null before. */
  result: unknown;
  /** The text of a failed request (e.g. "Tarefa não encontrada"), else the job's own error summary. */
  error: string | null;
  isLoading: boolean;
  /** The request for the job failed (see `error` for its text). */
  isError: boolean;
}

/** The live state of a background job, polled until it is final. */
export function useJobState(id: string | null | undefined, options?: JobPollingOptions): JobStateView {
  const query = useQuery(jobQueryOptions(id, options));
  const job = query.data;
  const state = job?.state ?? null;
  const requestError = query.isError ? toastForError(query.error).text : null;

  return {
    job,
    state,
    isFinal: isFinalJobState(state),
    progress: job?.progress ?? null,
    result: job?.state === "succeeded" ? job.result : null,
    error: requestError ?? job?.error ?? null,
    isLoading: query.isLoading,
    isError: query.isError,
  };
}

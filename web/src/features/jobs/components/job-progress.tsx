import { useId, type ReactNode } from "react";
import { isFinalJobState, useJobState, type JobPollingOptions } from "@/features/jobs/api/get-job";
import { INTERNAL_SERVER_ERROR_TEXT } from "@/lib/api-client";
import type { FinalJobState, JobState } from "@/types/api";
import "./job-progress.css";

const JOB_PENDING_TEXT = "Processando...";
const JOB_SUCCEEDED_TEXT = "Concluído";
const JOB_CANCELLED_TEXT = "Cancelado";

interface JobProgressProps extends JobPollingOptions {
  jobId: string | null | undefined;
  /** What to show with the job's result once it succeeded (a download link, say). */
  children?: (result: unknown) => ReactNode;
}

/** A final state, or "pending"; a request that failed counts as failed. */
type Outcome = FinalJobState | "pending";

function outcomeOf(state: JobState | null, isError: boolean): Outcome {
  if (isFinalJobState(state)) return state;
  return isError ? "failed" : "pending";
}

function ProgressBar({ progress, labelId }: { progress: number | null; labelId: string }) {
  const known = progress !== null;
  return (
    <div
      className={known ? "job-progress__bar" : "job-progress__bar job-progress__bar--indeterminate"}
      role="progressbar"
      aria-labelledby={labelId}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={known ? progress : undefined}
    >
      <span className="job-progress__fill" style={known ? { width: `${progress}%` } : undefined} />
    </div>
  );
}

/** How far a background job is: a progress bar while it runs, then how it ended. */
export function JobProgress({ jobId, intervalMs, children }: JobProgressProps) {
  const { state, progress, result, error, isError } = useJobState(jobId, { intervalMs });
  const textId = useId();
  const outcome = outcomeOf(state, isError);

  const text = {
    pending: JOB_PENDING_TEXT,
    succeeded: JOB_SUCCEEDED_TEXT,
    failed: error ?? INTERNAL_SERVER_ERROR_TEXT,
    cancelled: JOB_CANCELLED_TEXT,
  }[outcome];

  return (
    <div className={`job-progress job-progress--${outcome}`} aria-busy={outcome === "pending"}>
      {outcome === "pending" && <ProgressBar progress={progress} labelId={textId} />}
      <p id={textId} className="job-progress__text" role="status">
        {text}
      </p>
      {outcome === "succeeded" && children?.(result)}
    </div>
  );
}

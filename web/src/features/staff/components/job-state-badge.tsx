import { JOB_STATE_LABELS } from "@/features/staff/job-states";
import type { JobState } from "@/types/api";

export function JobStateBadge({ state }: { state: JobState }) {
  return <span className={`ops-badge ops-badge--${state}`}>{JOB_STATE_LABELS[state]}</span>;
}

// How the console names job states and which actions each state allows (docs/api-ops.md).
import type { JobState } from "@/types/api";

export const JOB_STATE_LABELS: Record<JobState, string> = {
  queued: "Na fila",
  scheduled: "Agendada",
  running: "Executando",
  retrying: "Aguardando nova tentativa",
  succeeded: "Concluída",
  failed: "Falhou",
  cancelled: "Cancelada",
};

export const JOB_STATES = Object.keys(JOB_STATE_LABELS) as JobState[];

export function isJobState(value: string | null): value is JobState {
  return value !== null && value in JOB_STATE_LABELS;
}

/** A re-run puts the job back in the queue; a waiting retry runs now. */
export function canRerun(state: JobState): boolean {
  return state === "failed" || state === "cancelled" || state === "retrying";
}

/** A running job cannot be cancelled: its worker already has it. */
export function canCancel(state: JobState): boolean {
  return state === "queued" || state === "scheduled" || state === "retrying";
}

// How the console names job states. Which actions a job allows comes from the server
// (`can_rerun`, `can_cancel` in docs/api-ops.md), not from the state here.
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

// Annulling a participation from the console (POST /api/ops/participations/{id}/annul).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { invalidateOpsData } from "@/features/staff/api/ops-keys";
import { api } from "@/lib/api-client";
import { OWN_ERROR_TEXT } from "@/lib/query-client";
import type { OpsAnnulled, OpsJobSummary } from "@/types/api";

/**
 * The participation a job is about, if any: the trophies and lucky-number jobs name it, an
 * activity credit's key holds it (`activity:{id}:activity`).
 */
export function participationOf(job: Pick<OpsJobSummary, "subject">): number | null {
  const { subject } = job;
  if (!subject) return null;
  const id =
    subject.kind === "participation" ? subject.id : subject.kind === "credit" ? /^activity:(\d+):activity$/.exec(subject.id)?.[1] : undefined;
  return id !== undefined && /^\d+$/.test(id) ? Number(id) : null;
}

export function useAnnulParticipation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reason }: { id: number; reason: string }) =>
      api.post<OpsAnnulled>(`/ops/participations/${id}/annul`, { reason }),
    // The dialog shows a refusal itself (the reason's rules, annulled already).
    meta: OWN_ERROR_TEXT,
    onSuccess: () => invalidateOpsData(queryClient),
  });
}

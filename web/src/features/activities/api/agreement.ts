// Type 15 (agreement): accepting the terms is the participation (POST /agreement), paid once
// by the server; a refusal (the rules) is the form's to show.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { activityKeys } from "@/features/activities/api/activity-keys";
import { api } from "@/lib/api-client";
import { OWN_ERROR_TEXT } from "@/lib/query-client";
import type { ParticipationRecorded } from "@/types/api";

export function useAcceptAgreement(actionId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<ParticipationRecorded>("/agreement", { action_id: actionId, accepted: true }),
    meta: OWN_ERROR_TEXT,
    onSuccess: async () => {
      // The participation changes the activity's userActions and availability.
      await queryClient.invalidateQueries({ queryKey: activityKeys.all, refetchType: "none" });
    },
  });
}

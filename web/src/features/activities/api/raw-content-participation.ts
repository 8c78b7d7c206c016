// Type 16 (raw content): viewing it is the participation, paid once by the server. The
// member's points are asked for again when the feedback dialog closes (feedback-dialog.tsx).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { activityKeys } from "@/features/activities/api/activity-keys";
import type { ParticipationRecorded, RawContentParticipationRequest } from "@/types/api";
import { api } from "@/lib/api-client";

export function useRawContentParticipation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: RawContentParticipationRequest) =>
      api.post<ParticipationRecorded>("/raw-content-participation", request),
    onSuccess: async () => {
      // The participation changes the activity's userActions and availability.
      await queryClient.invalidateQueries({ queryKey: activityKeys.all, refetchType: "none" });
    },
  });
}

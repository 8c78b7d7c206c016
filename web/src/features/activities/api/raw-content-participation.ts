// Type 16 (raw content): viewing it is the participation, paid once by the server.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { activityKeys } from "@/features/activities/api/activity-keys";
import type { RawContentParticipation, RawContentParticipationRequest } from "@/types/api";
import { useSession } from "@/features/session";
import { invalidateWallet } from "@/features/wallet";
import { api } from "@/lib/api-client";

export function useRawContentParticipation() {
  const queryClient = useQueryClient();
  const userId = useSession()?.user.id;
  return useMutation({
    mutationFn: (request: RawContentParticipationRequest) =>
      api.post<RawContentParticipation>("/raw-content-participation", request),
    onSuccess: async () => {
      // The credit changes the balance and the activity's userActions and availability.
      if (userId !== undefined) await invalidateWallet(queryClient, userId);
      await queryClient.invalidateQueries({ queryKey: activityKeys.all, refetchType: "none" });
    },
  });
}

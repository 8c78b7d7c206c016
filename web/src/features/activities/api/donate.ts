// Type 20 (donation): the member gives part of the wallet; the donation is the participation
// (POST /user-donates), and the wallet and the activity are read again after it.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { activityKeys } from "@/features/activities/api/activity-keys";
import { useSession } from "@/features/session";
import { invalidateWallet } from "@/features/wallet";
import { api } from "@/lib/api-client";
import { OWN_ERROR_TEXT } from "@/lib/query-client";
import type { Donation } from "@/types/api";

export function donate(actionId: number, cents: number): Promise<Donation> {
  // The spec's `points` is the amount in reais (a wallet point is R$ 1,00).
  return api.post<Donation>("/user-donates", { action_id: actionId, points: cents / 100 });
}

/** Donates; a refusal (bounds, balance, rules) is the form's to show. */
export function useDonate(actionId: number) {
  const queryClient = useQueryClient();
  const userId = useSession()?.user.id;
  return useMutation({
    mutationFn: (cents: number) => donate(actionId, cents),
    meta: OWN_ERROR_TEXT,
    onSuccess: async () => {
      if (userId !== undefined) void invalidateWallet(queryClient, userId);
      await queryClient.invalidateQueries({ queryKey: activityKeys.all, refetchType: "none" });
    },
  });
}

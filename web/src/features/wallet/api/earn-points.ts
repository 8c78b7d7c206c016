import { useMutation, useQueryClient } from "@tanstack/react-query";
import { walletKeys } from "@/features/wallet/api/wallet-keys";
import { useSession } from "@/features/session/use-session";
import { api } from "@/lib/api-client";
import type { EarnPointsAnswer, EarnPointsRequest } from "@/types/api";

/**
 * POST /api/user-earn-points/: asks the server to credit the member's completed
 * participations (it decides the amounts; `points` is ignored).
 */
export function earnPoints(request: EarnPointsRequest): Promise<EarnPointsAnswer> {
  return api.post<EarnPointsAnswer>("/user-earn-points/", request);
}

/** Claims the member's earned points, then refreshes the balance and the statement. */
export function useEarnPoints() {
  const queryClient = useQueryClient();
  const userId = useSession()?.user.id;
  return useMutation({
    mutationFn: earnPoints,
    onSettled: () =>
      userId === undefined ? undefined : queryClient.invalidateQueries({ queryKey: walletKeys.all(userId) }),
  });
}

import { useMutation } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import type { LoginLocationState } from "@/features/accounts/location-state";
import { useStation } from "@/features/stations";
import { api } from "@/lib/api-client";
import type { ActivationAnswer, ActivationRequest } from "@/types/api";

export function activateParticipant(request: ActivationRequest): Promise<ActivationAnswer> {
  return api.post<ActivationAnswer>("/auth/signup/activate-participant/", request);
}

/** The e-mail (masked when `user_id` names the account), and the code or the link's token. */
export type Activation = Pick<ActivationRequest, "email" | "hash" | "user_id">;

/**
 * Activates an account of this station; success goes to /login, which says the code was
 * validated. The error toast comes from the query client; `onError` adds what a screen does.
 */
export function useActivateParticipant({ onError }: { onError?: () => void } = {}) {
  const station = useStation();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: (activation: Activation) =>
      activateParticipant({ station: station.id, establishment: station.establishment?.id, ...activation }),
    onSuccess: () => {
      const state: LoginLocationState = { wasActived: true };
      void navigate("/login", { replace: true, state });
    },
    onError,
  });
}

import { useMutation } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import type { LoginLocationState } from "@/features/accounts/location-state";
import { useStation } from "@/features/stations";
import { api } from "@/lib/api-client";
import type { User } from "@/types/api";

export interface ActivationRequest {
  station: number;
  establishment?: number;
  email: string;
  /** The 6-digit code or the e-mailed link's token. */
  hash: string;
  /** The account, when `email` is masked (affiliated flow). */
  user_id?: number;
}

/** Public to whoever holds the code, so it names the account and nothing personal. */
export interface ActivationAnswer {
  message: string;
  user: Pick<User, "id" | "active">;
}

export function activateParticipant(request: ActivationRequest): Promise<ActivationAnswer> {
  return api.post<ActivationAnswer>("/auth/signup/activate-participant/", request);
}

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

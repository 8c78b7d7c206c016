import { useMutation } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import type { LoginLocationState } from "@/features/accounts/location-state";
import { useStation } from "@/features/stations";
import { api } from "@/lib/api-client";
import type { MessageAnswer, PasswordResetRequest, PasswordUpdate } from "@/types/api";

/** E-mails a reset link when the address has an account; the answer is the same either way. */
export function requestPasswordReset(body: PasswordResetRequest): Promise<MessageAnswer> {
  return api.post<MessageAnswer>("/auth/validate-email-forgot-pass", body);
}

export function updatePassword(body: PasswordUpdate): Promise<MessageAnswer> {
  return api.post<MessageAnswer>("/auth/update-password", body);
}

/** What the reset page sends; the station is this host's. */
export type NewPassword = Omit<PasswordUpdate, "station_id">;

export function useRequestPasswordReset() {
  const station = useStation();
  return useMutation({
    mutationFn: (email: string) => requestPasswordReset({ email, station_id: station.id }),
  });
}

/** Sets the new password; success goes to /login, which says the new password works. */
export function useUpdatePassword() {
  const station = useStation();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: (update: NewPassword) => updatePassword({ ...update, station_id: station.id }),
    onSuccess: () => {
      const state: LoginLocationState = { wasRecovered: true };
      void navigate("/login", { replace: true, state });
    },
  });
}

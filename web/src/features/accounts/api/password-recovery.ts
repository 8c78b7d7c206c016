import { useMutation } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import type { LoginLocationState } from "@/features/accounts/location-state";
import { useStation } from "@/features/stations";
import { api } from "@/lib/api-client";

export interface MessageAnswer {
  message: string;
}

/** E-mails a reset link when the address has an account; the answer is the same either way. */
export function requestPasswordReset(body: { email: string; station_id: number }): Promise<MessageAnswer> {
  return api.post<MessageAnswer>("/auth/validate-email-forgot-pass", body);
}

export interface PasswordUpdate {
  password: string;
  password_confirmation: string;
  userHash: string;
  userEmail: string;
}

export function updatePassword(body: PasswordUpdate & { station_id: number }): Promise<MessageAnswer> {
  return api.post<MessageAnswer>("/auth/update-password", body);
}

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
    mutationFn: (update: PasswordUpdate) => updatePassword({ ...update, station_id: station.id }),
    onSuccess: () => {
      const state: LoginLocationState = { wasRecovered: true };
      void navigate("/login", { replace: true, state });
    },
  });
}

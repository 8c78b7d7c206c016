import { useMutation } from "@tanstack/react-query";
import { chooseConfirmationMethod } from "@/features/accounts/signup/api/confirmation-method";
import { useStation } from "@/features/stations";
import { api } from "@/lib/api-client";
import type { ResendAnswer, ResendRequest } from "@/types/api";

/** Seconds between two codes, as the server counts them too. */
export const RESEND_WAIT_SECONDS = 60;

export function resendConfirmationEmail(body: ResendRequest): Promise<ResendAnswer> {
  return api.post<ResendAnswer>("/auth/resend-confirmation-email", body);
}

/**
 * Sends a new activation code: by e-mail address, or by account id when the page only knows
 * a masked e-mail (affiliated flow; the code goes to the account's own e-mail). Resolves to
 * the seconds until the next one may be asked.
 */
export function useResendCode({ email, userId }: { email: string; userId?: number }) {
  const station = useStation();
  return useMutation({
    mutationFn: async () => {
      const answer =
        userId === undefined
          ? await resendConfirmationEmail({ email, station_id: station.id })
          : await chooseConfirmationMethod({
              station_id: station.id,
              user_id: userId,
              type: "email",
              email: null,
              tel: null,
              id: null,
            });
      return answer.resend_in;
    },
  });
}

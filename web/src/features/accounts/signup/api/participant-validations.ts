import { useMutation } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import type { AffiliateInfo, CredentialsCheck } from "@/types/api";

/** Only the identifiers the station's step 0 asks for are sent. */
export function checkParticipantCredentials(check: CredentialsCheck) {
  return api.post<AffiliateInfo>("/auth/signup-participant-validations", check);
}

export function useParticipantValidations() {
  return useMutation({ mutationFn: checkParticipantCredentials });
}

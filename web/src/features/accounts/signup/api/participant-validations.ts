import { useMutation } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import type { AffiliateInfo } from "@/features/accounts/signup/api/types";

/** Only the identifiers the station's step 0 asks for are sent. */
export interface ParticipantValidationsPayload {
  station_id: number;
  email?: string;
  cpf?: string;
  name?: string;
  tel?: string;
}

export function checkParticipantCredentials(payload: ParticipantValidationsPayload) {
  return api.post<AffiliateInfo>("/auth/signup-participant-validations", payload);
}

export function useParticipantValidations() {
  return useMutation({ mutationFn: checkParticipantCredentials });
}

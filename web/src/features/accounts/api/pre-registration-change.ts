// The profile's pre-registration change request (spec 002 section 7: POST
// pre-registration-change), where the station takes them (`pre_registration_access`).
import { useMutation } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import type { PreRegistrationChange, PreRegistrationSent } from "@/types/api";

/** The spec's options for `situacao`. */
export const SITUATIONS = ["Ativo", "Aposentado", "Inativo", "Pensionista"] as const;

export function sendPreRegistrationChange(request: PreRegistrationChange) {
  return api.post<PreRegistrationSent>("/pre-registration-change", request);
}

export function usePreRegistrationChange() {
  return useMutation({ mutationFn: sendPreRegistrationChange });
}

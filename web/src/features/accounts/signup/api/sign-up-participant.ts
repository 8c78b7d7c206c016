import { useMutation } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import type { ParticipantSignUpAnswer, ParticipantSignUpRequest } from "@/types/api";

/** The multi-step sign-up; what a station's form does not ask for travels as null. */
export function signUpParticipant(request: ParticipantSignUpRequest) {
  return api.post<ParticipantSignUpAnswer>("/auth/signup-participant", request);
}

export function useParticipantSignUp() {
  return useMutation({ mutationFn: signUpParticipant });
}

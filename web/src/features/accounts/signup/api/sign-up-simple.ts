import { useMutation } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import type { Session, SimpleSignUpRequest } from "@/types/api";

/** Creates an active account and signs it in; on no-CPF stations the e-mail stands for the CPF. */
export function signUpSimple(request: SimpleSignUpRequest) {
  return api.post<Session>("/auth/signup", request);
}

export function useSimpleSignUp() {
  return useMutation({ mutationFn: signUpSimple });
}

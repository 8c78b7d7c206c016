import { useMutation } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import type { MemberGetMember, SignUpSession } from "@/features/accounts/signup/api/types";
import { USER_TYPE_PARTICIPANT } from "@/types/api";

export interface SimpleSignUpPayload {
  cpf: string | null;
  birthday: string;
  state: string;
  firstName: string;
  lastName: string;
  phoneNumber: string;
  captcha: string;
  station: number;
  type: typeof USER_TYPE_PARTICIPANT;
  subdomain: string;
  member_get_member?: MemberGetMember;
  /** No-CPF stations only: the account's identifier instead of the CPF. */
  email?: string;
}

export function signUpSimple(payload: SimpleSignUpPayload) {
  return api.post<SignUpSession>("/auth/signup", payload);
}

export function useSimpleSignUp() {
  return useMutation({ mutationFn: signUpSimple });
}

import { useMutation } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import type { MemberGetMember } from "@/features/accounts/signup/api/types";
import type { User } from "@/types/api";

/** The multi-step payload; what a station's form does not ask for travels as null. */
export interface ParticipantSignUpPayload {
  email: string | null;
  cpf: string | null;
  name: string | null;
  tel: string | null;
  birthday: string | null;
  state: string | null;
  city: string | null;
  password: string;
  password_confirmation: string;
  station_id: number;
  establishment_id: number | null;
  member_get_member?: MemberGetMember;
  captcha?: string;
}

export interface ParticipantSignUpAnswer {
  user: Pick<User, "id" | "name" | "email" | "active">;
  confirmation: { sent: boolean; job_id: string | null; resend_in: number };
}

export function signUpParticipant(payload: ParticipantSignUpPayload) {
  return api.post<ParticipantSignUpAnswer>("/auth/signup-participant", payload);
}

export function useParticipantSignUp() {
  return useMutation({ mutationFn: signUpParticipant });
}

import { useMutation } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import { getStoredSession, storeSession } from "@/lib/session-store";
import type { User } from "@/types/api";

/** Any subset of the member's data (the onboarding wizard's steps). */
export interface ParticipantUpdate {
  name?: string;
  cpf?: string;
  tel?: string;
  birthday?: string;
  state?: string;
  city?: string;
  email?: string;
  password?: string;
  password_confirmation?: string;
  zipcode?: string;
  address_line_1?: string;
  address_number?: string;
  address_line_2?: string;
  neighborhood?: string;
  briefingDone?: boolean;
}

interface UpdateParticipantAnswer {
  message: string;
  user: User;
}

export function updateParticipant(userId: number, changes: ParticipantUpdate) {
  return api.put<UpdateParticipantAnswer>(`/auth/update-participant/${userId}`, changes);
}

/** The stored user follows the server's answer, so every screen shows the new data. */
export function keepStoredUser(user: User): void {
  const session = getStoredSession();
  if (session) storeSession({ ...session, user: { ...session.user, ...user } });
}

export function useUpdateParticipant(userId: number) {
  return useMutation({
    mutationFn: (changes: ParticipantUpdate) => updateParticipant(userId, changes),
    onSuccess: ({ user }) => keepStoredUser(user),
  });
}

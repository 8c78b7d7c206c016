import { useMutation } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import { getStoredSession, storeSession } from "@/lib/session-store";
import type { ParticipantUpdate, ProfileUpdated, User } from "@/types/api";

/** Any subset of the member's data (the onboarding wizard's steps). */
export function updateParticipant(userId: number, changes: ParticipantUpdate) {
  return api.put<ProfileUpdated>(`/auth/update-participant/${userId}`, changes);
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

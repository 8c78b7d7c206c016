// The people who signed up through the member's invite link (GET /member-get-members/{userId},
// the caller's own id; the API refuses anyone else's with 403).
import { queryOptions, useQuery } from "@tanstack/react-query";
import { useSession } from "@/features/session";
import { api } from "@/lib/api-client";
import type { MemberInvitation } from "@/types/api";

export const invitationKeys = {
  list: (userId: number) => ["invitations", userId] as const,
};

export function getInvitations(userId: number, { signal }: { signal?: AbortSignal } = {}) {
  return api.get<MemberInvitation[]>(`/member-get-members/${userId}`, { signal });
}

export function useInvitations() {
  // The member area renders only behind the member guard, so a session is there.
  const userId = useSession()?.user.id ?? 0;
  return useQuery(
    queryOptions({
      queryKey: invitationKeys.list(userId),
      queryFn: ({ signal }) => getInvitations(userId, { signal }),
    }),
  );
}

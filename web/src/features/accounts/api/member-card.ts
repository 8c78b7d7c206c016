// The virtual member card (spec 002 "Profile and virtual card"): GET /users/{id} answers the
// member alone in a list, with `member_card` (null where the station shows no card); its
// PDF is GET /users/{id}/member-card/pdf, made by a job and followed like the shop's PDFs.
import { queryOptions, useQuery } from "@tanstack/react-query";
import { useSession } from "@/features/session";
import { useStation } from "@/features/stations";
import { api } from "@/lib/api-client";
import type { MemberCardUser } from "@/types/api";

export const memberCardKeys = {
  user: (userId: number) => ["accounts", "member-card", userId] as const,
};

export const memberCardPdfPath = (userId: number) => `/users/${userId}/member-card/pdf`;

export function getMemberCardUser(userId: number, { signal }: { signal?: AbortSignal } = {}): Promise<MemberCardUser | null> {
  return api.get<MemberCardUser[]>(`/users/${userId}`, { signal }).then((users) => users[0] ?? null);
}

export function memberCardQueryOptions(userId: number) {
  return queryOptions({
    queryKey: memberCardKeys.user(userId),
    queryFn: ({ signal }) => getMemberCardUser(userId, { signal }),
  });
}

/** The member and their card; asked only where the station shows member cards. */
export function useMemberCardUser() {
  const shown = useStation().member_card_access;
  // The member area renders only behind the member guard, so a session is there.
  const userId = useSession()?.user.id ?? 0;
  return useQuery({ ...memberCardQueryOptions(userId), enabled: shown });
}

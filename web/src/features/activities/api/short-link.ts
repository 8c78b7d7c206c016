// Type 5 (share): the member's own short link (POST /short-links), `{station url}/s/{code}`,
// which redirects to the share page and counts the opening. A query rather than a
// mutation: the server answers the same code however often it is asked.
import { queryOptions, useQuery } from "@tanstack/react-query";
import { useSession } from "@/features/session";
import { api } from "@/lib/api-client";
import type { ShortLink } from "@/types/api";

export function takeShortLink(actionId: number): Promise<ShortLink> {
  return api.post<ShortLink>("/short-links", { action_id: actionId });
}

export function shortLinkQueryOptions(userId: number, actionId: number) {
  return queryOptions({
    queryKey: ["short-link", userId, actionId],
    queryFn: () => takeShortLink(actionId),
    staleTime: Infinity,
  });
}

/** The member's short link for `actionId`, asked only while `enabled` (the share is open). */
export function useShortLink(actionId: number, enabled: boolean) {
  const userId = useSession()?.user.id ?? 0;
  return useQuery({ ...shortLinkQueryOptions(userId, actionId), enabled });
}

import { queryOptions } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import type { Session } from "@/types/api";

/** Redeems a login-token link: the link's token, not a stored one, is the bearer. */
export function loginWithToken(token: string): Promise<Session> {
  return api.post<Session>("/auth/login-token", undefined, { token, unauthorizedIsAnswer: true });
}

/**
 * A query rather than a mutation so the page's error state shows the message without the
 * global error toast repeating it. The token works once: never refetched, never retried.
 */
export function loginWithTokenQueryOptions(token: string) {
  return queryOptions({
    queryKey: ["login-token", token],
    queryFn: () => loginWithToken(token),
    retry: false,
    staleTime: Infinity,
    gcTime: 0,
  });
}

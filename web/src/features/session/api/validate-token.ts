import { queryOptions, skipToken } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import type { TokenValidity } from "@/types/api";

/** Whether `token` still opens a session; a bad token is `valid: false`, never a 401. */
export function validateToken(token: string, { signal }: { signal?: AbortSignal } = {}): Promise<TokenValidity> {
  return api.get<TokenValidity>("/auth/validate-token", { token, signal });
}

/** Asked once per app start and token (none for a visitor): the answer holds until the session changes. */
export function validateTokenQueryOptions(token: string | undefined) {
  return queryOptions({
    queryKey: ["session", "validate-token", token],
    queryFn: token === undefined ? skipToken : ({ signal }) => validateToken(token, { signal }),
    staleTime: Infinity,
  });
}

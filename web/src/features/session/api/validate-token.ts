import { queryOptions, skipToken } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import { getStoredSession } from "@/lib/session-store";
import type { TokenValidity } from "@/types/api";

/** Whether `token` still opens a session; a bad token is `valid: false`, never a 401. */
export function validateToken(token: string, { signal }: { signal?: AbortSignal } = {}): Promise<TokenValidity> {
  return api.get<TokenValidity>("/auth/validate-token", { token, signal });
}

/** The check's answer, with the stored user as it was when the question was asked (as JSON). */
export type CheckedSession = TokenValidity & { askedFor: string };

/** The stored user as the session check compares it. */
export function storedUserText(): string {
  return JSON.stringify(getStoredSession()?.user ?? null);
}

/** Asked once per app start and token (none for a visitor): the answer holds until the session changes. */
export function validateTokenQueryOptions(token: string | undefined) {
  return queryOptions({
    queryKey: ["session", "validate-token", token],
    queryFn:
      token === undefined
        ? skipToken
        : async ({ signal }): Promise<CheckedSession> => {
            const askedFor = storedUserText();
            return { ...(await validateToken(token, { signal })), askedFor };
          },
    staleTime: Infinity,
  });
}

import { api } from "@/lib/api-client";

/**
 * Revokes the session of `token` on the server, so the token stops working everywhere. A
 * 401 means it already had (revoked elsewhere, expired): the answer, not a failure.
 */
export function revokeSession(token: string): Promise<void> {
  return api.post<void>("/auth/logout", undefined, { token, unauthorizedIsAnswer: true });
}

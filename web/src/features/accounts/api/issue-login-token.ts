import { api } from "@/lib/api-client";
import type { IssuedLoginToken } from "@/types/api";

/** A single-use token (2 minutes) that hands the signed-in member over to another host. */
export function issueLoginToken(): Promise<IssuedLoginToken> {
  return api.post<IssuedLoginToken>("/auth/login-token/issue");
}

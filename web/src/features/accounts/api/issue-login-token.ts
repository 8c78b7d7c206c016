import { api } from "@/lib/api-client";

export interface IssuedLoginToken {
  token: string;
  expires_at: string;
}

/** A single-use token (2 minutes) that hands the signed-in member over to another host. */
export function issueLoginToken(): Promise<IssuedLoginToken> {
  return api.post<IssuedLoginToken>("/auth/login-token/issue");
}

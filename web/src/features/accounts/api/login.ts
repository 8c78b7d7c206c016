import { useMutation } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import { useFinishLogin } from "@/features/accounts/finish-login";
import type { CadastrarLocationState } from "@/features/accounts/location-state";
import { api, ApiError } from "@/lib/api-client";
import type { AffiliateInfo, LoginCredentials, Session } from "@/types/api";

export function login(stationId: number, credentials: LoginCredentials): Promise<Session> {
  // A 401 answers a wrong password or an account still to activate (see affiliateOf).
  return api.post<Session>(`/auth/login/establishment/${stationId}`, credentials, { unauthorizedIsAnswer: true });
}

/** The affiliate info of a 401 for an account still waiting for its verification code. */
export function affiliateOf(error: unknown): AffiliateInfo | null {
  if (!(error instanceof ApiError) || error.status !== 401) return null;
  const { body } = error;
  if (typeof body !== "object" || body === null || !("affiliate" in body)) return null;
  const { affiliate } = body;
  return typeof affiliate === "object" && affiliate !== null ? (affiliate as AffiliateInfo) : null;
}

/**
 * Logs in and goes on (see useFinishLogin). The error toast comes from the query client; an
 * account that must still confirm its sign-up is sent to /cadastrar at step 2.
 */
export function useLogin(stationId: number) {
  const navigate = useNavigate();
  const finishLogin = useFinishLogin();
  return useMutation({
    mutationFn: (credentials: LoginCredentials) => login(stationId, credentials),
    onSuccess: (session) => finishLogin(session, { mayHandOver: true }),
    onError: (error) => {
      const affiliate = affiliateOf(error);
      if (affiliate === null) return;
      const state: CadastrarLocationState = { stepForm: 2, affiliate };
      void navigate("/cadastrar", { state });
    },
  });
}

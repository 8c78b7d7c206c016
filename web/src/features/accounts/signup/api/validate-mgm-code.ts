import { queryOptions, skipToken, useQuery } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import type { MemberGetMember, MgmAnswer } from "@/types/api";

/** The parts of an invite code `{code}-U{inviterId}-E{stationId}`, or null for another shape. */
export function parseMgmCode(code: string): { inviterId: number; stationId: number } | null {
  const match = /^[^-\s]+-U(\d+)-E(\d+)$/.exec(code);
  if (!match) return null;
  return { inviterId: Number(match[1]), stationId: Number(match[2]) };
}

export function validateMgmCode(code: string, { signal }: { signal?: AbortSignal } = {}) {
  return api.post<MgmAnswer>(`/validate-mgm-code/${encodeURIComponent(code)}`, undefined, { signal });
}

export interface MgmInvite {
  pointsInvited: number;
  memberGetMember: MemberGetMember;
}

function mgmCodeQueryOptions(code: string | undefined) {
  return queryOptions({
    queryKey: ["mgm-code", code],
    queryFn: code ? ({ signal }) => validateMgmCode(code, { signal }) : skipToken,
    staleTime: Infinity,
    retry: false,
  });
}

/**
 * The invite of `/cadastrar/{code}`: only a valid code of this station counts; any other
 * code (or a failed check) signs up without one.
 */
export function useMgmInvite(
  code: string | undefined,
  stationId: number,
): { invite: MgmInvite | null; isLoading: boolean } {
  const parts = code ? parseMgmCode(code) : null;
  const ofThisStation = parts !== null && parts.stationId === stationId;
  const query = useQuery(mgmCodeQueryOptions(ofThisStation ? code : undefined));
  const answer = query.data;
  if (!ofThisStation || !answer?.valid || !answer.action || !parts || !code) {
    return { invite: null, isLoading: ofThisStation && query.isLoading };
  }
  return {
    invite: {
      pointsInvited: answer.points_invited,
      memberGetMember: { action_id: answer.action.id, inviter_id: parts.inviterId, code },
    },
    isLoading: false,
  };
}

/** The sign-up heading of an invited person. */
export function inviteHeading(invite: MgmInvite): string {
  return `Cadastre-se agora e ganhe ${invite.pointsInvited} pontos`;
}

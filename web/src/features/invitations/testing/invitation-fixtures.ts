// Invitations as the API answers them, for the member Maria (id 1) of the demo station (id 7).
import type { InvitationSent, MemberInvitation } from "@/types/api";

export const INVITATIONS_CALL = "GET /api/member-get-members/1";
export const SEND_MGP_CALL = "POST /api/send-html-to-mails-mgp";
/** The link of the signed-in fixture member (invite code ABCD1234) on the fixture station. */
export const FIXTURE_LINK = "http://127.0.0.1:8080/cadastrar/ABCD1234-U1-E7";

export function buildInvitation(overrides: Partial<MemberInvitation> = {}): MemberInvitation {
  return {
    id: 21,
    invited: { id: 21, name: "Lúcia Andrade" },
    createdAt: "2026-11-20T13:05:00Z",
    ...overrides,
  };
}

export function buildInvitationSent(emails: string[]): InvitationSent {
  return {
    message: "Operação realizada com sucesso",
    emails,
    link: FIXTURE_LINK,
    points: 50,
    remaining_today: 20 - emails.length,
  };
}

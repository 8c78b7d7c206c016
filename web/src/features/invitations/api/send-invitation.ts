// Sending the member's invite link by e-mail from an invitation activity (types 1 and 19,
// POST /send-html-to-mails-mgp). The server uses the session's member, station, link and
// points whatever the payload says; the spec's fields are sent as its screens do.
import { useMutation } from "@tanstack/react-query";
import { useSession } from "@/features/session";
import { useStation } from "@/features/stations";
import { api } from "@/lib/api-client";
import type { Activity, InvitationSent } from "@/types/api";

/** Mails the invite link to `emails`; a refusal is the 'Erro' toast of every mutation. */
export function useSendInvitation(activity: Activity) {
  const session = useSession();
  const station = useStation();
  return useMutation({
    mutationFn: (emails: string[]) =>
      api.post<InvitationSent>("/send-html-to-mails-mgp", {
        action_id: activity.id,
        emails,
        sender_name: session?.user.name ?? "",
        station_name: station.name,
        points: activity.points,
        station_id: station.id,
      }),
  });
}

/** `{station url}/cadastrar/{code}-U{userId}-E{stationId}`, as the server builds it. */
export function inviteLink(stationUrl: string, inviteCode: string | null | undefined, userId: number, stationId: number) {
  if (!inviteCode) return null;
  return `${stationUrl.replace(/\/+$/, "")}/cadastrar/${inviteCode}-U${userId}-E${stationId}`;
}

import { useSession } from "@/features/session";
import { useStation } from "@/features/stations";

/** The caller's station and id, sent as where[station_id] and where[user_id] as the spec's screens do. */
export function useMemberScope(): { stationId: number; userId: number } {
  const stationId = useStation().id;
  // The member area renders only behind the member guard, so a session is there.
  const userId = useSession()?.user.id ?? 0;
  return { stationId, userId };
}

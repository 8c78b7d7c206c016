import { useSyncExternalStore } from "react";
import { getStoredSession, subscribeToSession } from "@/lib/session-store";
import type { Session } from "@/types/api";

/** The stored {user, token}, or null for a visitor; re-renders when it changes. */
export function useSession(): Session | null {
  return useSyncExternalStore(subscribeToSession, getStoredSession);
}

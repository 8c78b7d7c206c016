import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { removeSessionData } from "@/lib/query-client";
import { clearStoredSession } from "@/lib/session-store";

/** Forgets the signed-in user on this device: the stored session and everything fetched with it. */
export function useEndSession(): () => void {
  const queryClient = useQueryClient();
  return useCallback(() => {
    clearStoredSession();
    removeSessionData(queryClient);
  }, [queryClient]);
}

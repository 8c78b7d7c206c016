// Keeps the stored session honest (spec 000 section 4, "Session"): the token is validated
// when the app starts, and a 401 from any call ends the session the same way.
import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { useNavigate } from "react-router";
import { storedUserText, validateTokenQueryOptions } from "@/features/session/api/validate-token";
import { useEndSession } from "@/features/session/use-end-session";
import { useSession } from "@/features/session/use-session";
import { onSessionRejected } from "@/lib/api-client";
import { getStoredSession, storeSession } from "@/lib/session-store";

/**
 * Renders nothing. A token found invalid at start clears the stored session and cached data
 * (the route guards then send the visitor where a visitor belongs); a valid one refreshes
 * the stored user. A 401 to a call made with the session ends it and goes to /login.
 */
export function SessionWatch() {
  const token = useSession()?.token;
  const endSession = useEndSession();
  const navigate = useNavigate();
  const validity = useQuery(validateTokenQueryOptions(token));

  useEffect(() => {
    const answer = validity.data;
    // Only the answer about the token still stored counts (not one about a replaced session).
    if (answer === undefined || token === undefined || getStoredSession()?.token !== token) return;
    if (!answer.valid || answer.user === null) {
      endSession();
    } else if (JSON.stringify(answer.user) !== storedUserText() && answer.askedFor === storedUserText()) {
      // Only over the user the question was asked with: one stored since (a saved profile
      // while the check was on its way) is newer than this answer.
      storeSession({ user: answer.user, token });
    }
  }, [validity.data, token, endSession]);

  useEffect(
    () =>
      onSessionRejected(() => {
        // Both updates land in one render (the router runs without transitions, see App): the
        // page that needed the session never renders without it, where its guard would send
        // the visitor elsewhere first.
        endSession();
        void navigate("/login", { replace: true });
      }),
    [endSession, navigate],
  );

  return null;
}

// Where a member goes once a login succeeded (spec 000 section 4, "Login result").
import { useCallback } from "react";
import { useNavigate } from "react-router";
import { issueLoginToken } from "@/features/accounts/api/issue-login-token";
import { loadPage } from "@/features/accounts/full-page-navigation";
import { useStation } from "@/features/stations";
import { storeSession } from "@/lib/session-store";
import type { Session, Station, User } from "@/types/api";

/** The station whose members continue in its external app after login. */
export const EXTERNAL_APP_STATION_ID = 13;

export type LoginDestination =
  | { kind: "signup" }
  | { kind: "home" }
  | { kind: "external-app"; appUrl: string };

/**
 * An unfinished briefing (first login included) goes to the onboarding wizard; station 13
 * hands a finished member over to its external app at the station's `url`; everyone else
 * goes home. `mayHandOver` is false for a token login, which is how the app hands members
 * back, so the two hosts never bounce a member between them.
 */
export function destinationAfterLogin(user: User, station: Station, mayHandOver: boolean): LoginDestination {
  if (!user.briefingDone) return { kind: "signup" };
  const appUrl = station.url.trim().replace(/\/+$/, "");
  if (mayHandOver && station.id === EXTERNAL_APP_STATION_ID && appUrl !== "") {
    return { kind: "external-app", appUrl };
  }
  return { kind: "home" };
}

const HOME_PATH = "/";

/** Keeps the session and goes where destinationAfterLogin says. */
export function useFinishLogin() {
  const navigate = useNavigate();
  const station = useStation();

  return useCallback(
    async (session: Session, { mayHandOver }: { mayHandOver: boolean }) => {
      storeSession(session);
      const destination = destinationAfterLogin(session.user, station, mayHandOver);
      switch (destination.kind) {
        case "signup":
          await navigate("/signup", { replace: true });
          return;
        case "home":
          loadPage(HOME_PATH);
          return;
        case "external-app":
          try {
            const { token } = await issueLoginToken();
            loadPage(`${destination.appUrl}/login-token/${encodeURIComponent(token)}`);
          } catch {
            // Signed in here all the same: stay on this host rather than on the login form.
            loadPage(HOME_PATH);
          }
      }
    },
    [navigate, station],
  );
}

import { useEffect, useRef } from "react";
import { useNavigate } from "react-router";
import { LoadingPage } from "@/components/loading-page";
import { revokeSession, useEndSession } from "@/features/session";
import { getStoredSession } from "@/lib/session-store";

/**
 * /logout: forgets the session on this device at once, revokes it on the server, then goes
 * to /. A revocation that fails (no network) does not keep the member signed in here.
 */
export function LogoutRoute() {
  const endSession = useEndSession();
  const navigate = useNavigate();
  // StrictMode runs effects twice in development; the session is revoked once.
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const token = getStoredSession()?.token;
    endSession();
    const revoked = token === undefined ? Promise.resolve() : revokeSession(token).catch(() => undefined);
    void revoked.then(() => navigate("/", { replace: true }));
  }, [endSession, navigate]);

  return <LoadingPage />;
}

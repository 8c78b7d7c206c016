import { redirect } from "react-router";
import { clearStoredSession } from "@/lib/session-store";

/** /logout renders nothing: it forgets the session and sends the browser to /. */
export function logoutLoader() {
  clearStoredSession();
  return redirect("/");
}

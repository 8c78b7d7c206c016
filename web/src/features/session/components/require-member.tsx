import type { ReactNode } from "react";
import { Navigate } from "react-router";
import { mayEnterMemberArea } from "@/features/session/root-gate";
import { useSession } from "@/features/session/use-session";

/** Sends anyone the root gate would not let into the member area back to /, which explains why. */
export function RequireMember({ children }: { children: ReactNode }) {
  const session = useSession();
  if (!mayEnterMemberArea(session?.user ?? null)) return <Navigate to="/" replace />;
  return children;
}

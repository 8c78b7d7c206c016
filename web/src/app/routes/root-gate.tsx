import { Navigate } from "react-router";
import { LandingPage } from "@/features/landing/components/landing-page";
import { NoEstablishmentMessage } from "@/features/session/components/no-establishment-message";
import { decideRootGate } from "@/features/session/root-gate";
import { useSession } from "@/features/session/use-session";

export function RootGateRoute() {
  const decision = decideRootGate(useSession()?.user ?? null);
  switch (decision.kind) {
    case "landing":
      return <LandingPage />;
    case "no-establishment":
      return <NoEstablishmentMessage />;
    case "redirect":
      return <Navigate to={decision.to} replace />;
  }
}

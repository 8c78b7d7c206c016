import { Navigate } from "react-router";
import { LandingPage } from "@/features/landing";
import { NoEstablishmentMessage, decideRootGate, useSession } from "@/features/session";

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

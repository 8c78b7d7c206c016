import { Navigate } from "react-router";
import { lazyScreen } from "@/components/lazy-screen";
import { NoEstablishmentMessage, decideRootGate, useSession } from "@/features/session";

// The landing loads in a chunk of its own ("landing", vite.config.ts), so the first load of
// the login page and of the member area does not carry it.
const landingPage = lazyScreen(async () => (await import("@/features/landing")).LandingPage);

export function RootGateRoute() {
  const decision = decideRootGate(useSession()?.user ?? null);
  switch (decision.kind) {
    case "landing":
      return landingPage;
    case "no-establishment":
      return <NoEstablishmentMessage />;
    case "redirect":
      return <Navigate to={decision.to} replace />;
  }
}

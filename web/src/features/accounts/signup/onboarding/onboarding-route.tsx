import { Navigate, useParams } from "react-router";
import { OnboardingWizard } from "@/features/accounts/signup/onboarding/onboarding-wizard";
import { useSession } from "@/features/session";

/** /signup and /signup/{code_mgm}: signed-in participants only. */
export function OnboardingRoute() {
  const session = useSession();
  const { codeMgm } = useParams();
  // A visitor with an invite has not signed up yet: the invite belongs to the sign-up form.
  if (!session) return <Navigate to={codeMgm ? `/cadastrar/${encodeURIComponent(codeMgm)}` : "/login"} replace />;
  return <OnboardingWizard key={session.user.id} user={session.user} />;
}

import { useLocation, useParams } from "react-router";
import { LoadingPage } from "@/components/loading-page";
import type { SignUpLocationState } from "@/features/accounts/signup/api/types";
import { inviteHeading, useMgmInvite } from "@/features/accounts/signup/api/validate-mgm-code";
import { MultiStepSignUp, type MultiStepState } from "@/features/accounts/signup/components/multi-step-sign-up";
import { SignUpLayout } from "@/features/accounts/signup/components/sign-up-layout";
import { SimpleSignUpForm } from "@/features/accounts/signup/components/simple-sign-up-form";
import { useStation } from "@/features/stations";

/** The login screen's hand-over: an account awaiting activation opens at the code step. */
function stateFromLocation(state: unknown): MultiStepState | undefined {
  const { stepForm, affiliate } = (state ?? {}) as SignUpLocationState;
  if (stepForm !== 2 || !affiliate || affiliate.id === null) return undefined;
  return { step: 2, affiliate, userId: affiliate.id };
}

/** /cadastrar and /cadastrar/{code_mgm}: the station's sign-up form, with the invite if valid. */
export function SignUpRoute() {
  const station = useStation();
  const { codeMgm } = useParams();
  const location = useLocation();
  const { invite, isLoading } = useMgmInvite(codeMgm, station.id);
  const initialState = stateFromLocation(location.state);

  if (isLoading) return <LoadingPage />;
  if (station.signup_flow === "simple" && !initialState) {
    const title = invite ? inviteHeading(invite) : "Só falta um pouquinho";
    return (
      <SignUpLayout title={title}>
        <SimpleSignUpForm invite={invite} />
      </SignUpLayout>
    );
  }
  // The key opens the code step again when the login screen sends another account here.
  return <MultiStepSignUp key={location.key} invite={invite} initialState={initialState} />;
}

import { useState } from "react";
import type { AffiliateInfo } from "@/types/api";
import { inviteHeading, type MgmInvite } from "@/features/accounts/signup/api/validate-mgm-code";
import { IdentifyStep } from "@/features/accounts/signup/components/identify-step";
import { PasswordStep } from "@/features/accounts/signup/components/password-step";
import { PromotionalStep } from "@/features/accounts/signup/components/promotional-step";
import { SignUpLayout } from "@/features/accounts/signup/components/sign-up-layout";
import { useParticipantFlow, type Step0Data } from "@/features/accounts/signup/components/use-participant-flow";
import { VerificationStep } from "@/features/accounts/signup/components/verification-step";
import { useStation } from "@/features/stations";

/** One step at a time: what was collected travels with the step that needs it. */
export type MultiStepState =
  | { step: 0 }
  | { step: 1; data: Step0Data; affiliate: AffiliateInfo }
  | { step: 2; affiliate: AffiliateInfo; userId: number };

interface MultiStepSignUpProps {
  invite: MgmInvite | null;
  /** Opens another step than 0 (the login screen sends an account awaiting activation to step 2). */
  initialState?: MultiStepState;
}

const STEP_TITLES = ["Cadastre-se", "Crie a sua senha", "Confirme a sua identidade"] as const;

export function MultiStepSignUp({ invite, initialState = { step: 0 } }: MultiStepSignUpProps) {
  const station = useStation();
  const [state, setState] = useState<MultiStepState>(initialState);
  const flow = useParticipantFlow({
    memberGetMember: invite?.memberGetMember,
    onAffiliateCreated: (affiliate, userId) => setState({ step: 2, affiliate, userId }),
  });

  // The code step counts on affiliated stations, and wherever it is current (the login screen
  // opens it for a pending account on any station).
  const stepCount = (station.promotional ? 1 : 2) + (station.affiliated || state.step === 2 ? 1 : 0);
  const stepNumber = station.promotional && state.step === 2 ? 2 : state.step + 1;
  const title =
    state.step === 0 && invite ? inviteHeading(invite) : STEP_TITLES[state.step];

  return (
    <SignUpLayout title={title} eyebrow={stepCount > 1 ? `Etapa ${stepNumber} de ${stepCount}` : undefined}>
      {state.step === 0 &&
        (station.promotional ? (
          <PromotionalStep
            isPending={flow.isPending}
            onSubmit={(data, passwords, onFailed) =>
              flow.check(data, (affiliate) => flow.create(data, passwords, affiliate, onFailed), onFailed)
            }
          />
        ) : (
          <IdentifyStep
            isPending={flow.isPending}
            onSubmit={(data) => flow.check(data, (affiliate) => setState({ step: 1, data, affiliate }))}
          />
        ))}
      {state.step === 1 && (
        <PasswordStep
          isPending={flow.isPending}
          onSubmit={(passwords) => flow.create(state.data, passwords, state.affiliate)}
          onBack={() => setState({ step: 0 })}
        />
      )}
      {state.step === 2 && <VerificationStep affiliate={state.affiliate} userId={state.userId} />}
    </SignUpLayout>
  );
}

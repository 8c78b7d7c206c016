// The multi-step sign-up's calls in order: the credentials check, the account, then either
// the confirmation page or (affiliated stations) the code-method step.
import { useNavigate } from "react-router";
import type { AffiliateInfo, MemberGetMember } from "@/features/accounts/signup/api/types";
import { useParticipantValidations } from "@/features/accounts/signup/api/participant-validations";
import { useParticipantSignUp, type ParticipantSignUpPayload } from "@/features/accounts/signup/api/sign-up-participant";
import { useStation } from "@/features/stations";

/** What step 0 collected; what the station's form does not ask for is null. */
export type Step0Data = Pick<
  ParticipantSignUpPayload,
  "email" | "cpf" | "name" | "tel" | "birthday" | "state" | "city" | "captcha"
>;

export type Passwords = Pick<ParticipantSignUpPayload, "password" | "password_confirmation">;

export function useParticipantFlow({
  memberGetMember,
  onAffiliateCreated,
}: {
  memberGetMember: MemberGetMember | undefined;
  onAffiliateCreated: (affiliate: AffiliateInfo, userId: number) => void;
}) {
  const station = useStation();
  const navigate = useNavigate();
  const validations = useParticipantValidations();
  const signUp = useParticipantSignUp();

  /** Step 0's check; `onValid` gets the credentials response. */
  const check = (data: Step0Data, onValid: (affiliate: AffiliateInfo) => void, onError?: () => void) => {
    validations.mutate(
      {
        station_id: station.id,
        ...(data.email !== null && { email: data.email }),
        ...(data.cpf !== null && { cpf: data.cpf }),
        ...(data.name !== null && { name: data.name }),
        ...(data.tel !== null && { tel: data.tel }),
      },
      { onSuccess: onValid, onError },
    );
  };

  const create = (data: Step0Data, passwords: Passwords, affiliate: AffiliateInfo, onError?: () => void) => {
    const payload: ParticipantSignUpPayload = {
      email: data.email,
      // No-CPF stations sign up with a null CPF (spec 000 section 9).
      cpf: station.no_cpf ? null : data.cpf,
      name: data.name,
      tel: data.tel,
      birthday: data.birthday,
      state: data.state,
      city: data.city,
      ...passwords,
      station_id: station.id,
      establishment_id: station.establishment?.id ?? null,
      ...(memberGetMember && { member_get_member: memberGetMember }),
      ...(data.captcha !== undefined && { captcha: data.captcha }),
    };
    signUp.mutate(payload, {
      onSuccess: ({ user }) => {
        if (station.affiliated) {
          onAffiliateCreated(affiliate, user.id);
          return;
        }
        const email = user.email ?? data.email ?? "";
        void navigate(`/confirmacao/${encodeURIComponent(email)}`);
      },
      onError,
    });
  };

  return { check, create, isPending: validations.isPending || signUp.isPending };
}

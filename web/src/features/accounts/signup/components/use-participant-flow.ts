// The multi-step sign-up's calls in order: the credentials check, the account, then either
// the confirmation page or (affiliated stations) the code-method step. An account made says
// so: 'Cadastro realizado com sucesso' (spec 000 section 8; docs/decisions.md, "Success texts").
import { useNavigate } from "react-router";
import { useToast } from "@/components/toasts/use-toast";
import { useParticipantValidations } from "@/features/accounts/signup/api/participant-validations";
import { useParticipantSignUp } from "@/features/accounts/signup/api/sign-up-participant";
import { useStation } from "@/features/stations";
import type { AffiliateInfo, MemberGetMember, ParticipantSignUpRequest } from "@/types/api";

/** What step 0 collected; what the station's form does not ask for is null. */
export type Step0Data = Required<
  Pick<ParticipantSignUpRequest, "email" | "cpf" | "name" | "tel" | "birthday" | "state" | "city">
> &
  Pick<ParticipantSignUpRequest, "captcha">;

/** The toast once a sign-up made the account (either form). */
export const SIGNED_UP_TOAST = { title: "Sucesso!", text: "Cadastro realizado com sucesso" };

/** What step 1 collected: the password fields of the sign-up, as typed. */
export type Passwords = Record<"password" | "password_confirmation", string>;

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
  const showToast = useToast();

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
    const request: ParticipantSignUpRequest = {
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
    signUp.mutate(request, {
      onSuccess: ({ user }) => {
        showToast(SIGNED_UP_TOAST);
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

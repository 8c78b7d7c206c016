import { useNavigate } from "react-router";
import { CaptchaWidget, useCaptchaReset } from "@/features/captcha";
import { useSimpleSignUp } from "@/features/accounts/signup/api/sign-up-simple";
import type { MgmInvite } from "@/features/accounts/signup/api/validate-mgm-code";
import { normalizeEmail } from "@/features/accounts/signup/components/step0-fields";
import { TermsCheckbox } from "@/features/accounts/signup/components/terms-checkbox";
import { SIGNED_UP_TOAST } from "@/features/accounts/signup/components/use-participant-flow";
import { useToast } from "@/components/toasts/use-toast";
import { bindCheckbox, bindText, SelectField, TextField } from "@/components/form/fields";
import { StateOptions } from "@/components/form/state-options";
import { adult, requiredCaptcha } from "@/components/form/rules";
import { useForm, type FormRules } from "@/components/form/use-form";
import { useStation } from "@/features/stations";
import { storeSession } from "@/lib/session-store";
import { dateToApi, digitsOf, maskCpf, maskDate, maskPhone } from "@/lib/masks";
import { cpf, email, required, requiredCheckbox } from "@/lib/validators";
import { USER_TYPE_PARTICIPANT } from "@/types/api";
import { BirthdayField, LoginLink, PhoneField } from "@/components/form/common-fields";

interface SimpleSignUpValues {
  cpf: string;
  email: string;
  birthday: string;
  state: string;
  firstName: string;
  lastName: string;
  phoneNumber: string;
  captcha: string;
  terms: boolean;
}

const INITIAL_VALUES: SimpleSignUpValues = {
  cpf: "",
  email: "",
  birthday: "",
  state: "",
  firstName: "",
  lastName: "",
  phoneNumber: "",
  captcha: "",
  terms: false,
};

const trimmedRequired = (value: string) => required(value.trim());

/** The simple sign-up: personal data without a password; the session starts at once. */
export function SimpleSignUpForm({ invite }: { invite: MgmInvite | null }) {
  const station = useStation();
  const navigate = useNavigate();
  const showToast = useToast();
  const signUp = useSimpleSignUp();
  const rules: FormRules<SimpleSignUpValues> = {
    cpf: station.no_cpf ? [] : [required, cpf],
    email: station.no_cpf ? [required, email] : [],
    birthday: [required, adult],
    state: [required],
    firstName: [trimmedRequired],
    lastName: [trimmedRequired],
    phoneNumber: [required],
    captcha: [requiredCaptcha],
    terms: [requiredCheckbox],
  };
  const form = useForm(INITIAL_VALUES, rules);
  const captcha = useCaptchaReset(() => form.setValue("captcha", ""));

  const submit = form.handleSubmit((values) => {
    signUp.mutate(
      {
        cpf: station.no_cpf ? null : digitsOf(values.cpf),
        birthday: dateToApi(values.birthday),
        state: values.state,
        firstName: values.firstName.trim(),
        lastName: values.lastName.trim(),
        phoneNumber: digitsOf(values.phoneNumber),
        captcha: values.captcha,
        station: station.id,
        type: USER_TYPE_PARTICIPANT,
        subdomain: station.subdomain,
        ...(invite && { member_get_member: invite.memberGetMember }),
        // Without a CPF the account is known by its e-mail.
        ...(station.no_cpf && { email: normalizeEmail(values.email) }),
      },
      {
        onSuccess: (session) => {
          storeSession(session);
          showToast(SIGNED_UP_TOAST);
          void navigate("/signup");
        },
        onError: captcha.reset,
      },
    );
  });

  return (
    <form className="sign-up-form" onSubmit={submit} noValidate>
      {station.no_cpf ? (
        <TextField label="E-mail" type="email" autoComplete="email" {...bindText(form, "email")} />
      ) : (
        <TextField label="CPF" inputMode="numeric" autoComplete="off" {...bindText(form, "cpf", maskCpf)} />
      )}
      <BirthdayField {...bindText(form, "birthday", maskDate)} />
      <SelectField label="Estado" {...bindText(form, "state")}>
        <StateOptions />
      </SelectField>
      <div className="field-row">
        <TextField label="Nome" autoComplete="given-name" {...bindText(form, "firstName")} />
        <TextField label="Sobrenome" autoComplete="family-name" {...bindText(form, "lastName")} />
      </div>
      <PhoneField {...bindText(form, "phoneNumber", maskPhone)} />
      <CaptchaWidget key={captcha.key} onChange={(token) => form.setValue("captcha", token)} error={form.errors.captcha} />
      <TermsCheckbox {...bindCheckbox(form, "terms")} />
      <div className="sign-up__actions">
        <button type="submit" className="button button--primary" disabled={signUp.isPending}>
          {signUp.isPending ? "Enviando..." : "Cadastrar"}
        </button>
      </div>
      <LoginLink />
    </form>
  );
}

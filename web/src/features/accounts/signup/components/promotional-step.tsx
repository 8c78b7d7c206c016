import { CityField } from "@/features/address";
import { CaptchaWidget, useCaptchaReset } from "@/features/captcha";
import { TermsCheckbox } from "@/features/accounts/signup/components/terms-checkbox";
import { identifiersFilled, normalizeEmail, step0Fields } from "@/features/accounts/signup/components/step0-fields";
import type { Passwords, Step0Data } from "@/features/accounts/signup/components/use-participant-flow";
import { bindCheckbox, bindText, CheckboxField, SelectField, TextField } from "@/components/form/fields";
import { StateOptions } from "@/components/form/state-options";
import { adult, matchesPassword, requiredCaptcha } from "@/components/form/rules";
import { useForm, type FormRules } from "@/components/form/use-form";
import { useStation } from "@/features/stations";
import { dateToApi, digitsOf, maskCpf, maskDate, maskPhone } from "@/lib/masks";
import { cpf, email, noWhitespace, password, required, requiredCheckbox } from "@/lib/validators";
import { BirthdayField, LoginLink, NewPasswordFields, PhoneField } from "@/components/form/common-fields";

interface PromotionalValues {
  name: string;
  email: string;
  cpf: string;
  tel: string;
  birthday: string;
  state: string;
  city: string;
  password: string;
  password_confirmation: string;
  travelRequirements: boolean;
  rules: boolean;
  terms: boolean;
  captcha: string;
}

const INITIAL_VALUES: PromotionalValues = {
  name: "",
  email: "",
  cpf: "",
  tel: "",
  birthday: "",
  state: "",
  city: "",
  password: "",
  password_confirmation: "",
  travelRequirements: false,
  rules: false,
  terms: false,
  captcha: "",
};

interface PromotionalStepProps {
  isPending: boolean;
  /** `onFailed` runs when the check or the sign-up is refused (the captcha token is spent). */
  onSubmit: (data: Step0Data, passwords: Passwords, onFailed: () => void) => void;
}

/**
 * Step 0 of promotional stations: everything at once, password included. The city is one of
 * the chosen state's (`CityField`), typed when the list cannot be loaded.
 */
export function PromotionalStep({ isPending, onSubmit }: PromotionalStepProps) {
  const station = useStation();
  const fields = step0Fields(station);
  const rules: FormRules<PromotionalValues> = {
    name: [required, noWhitespace],
    email: fields.email ? [required, email] : [],
    cpf: station.no_cpf ? [] : [required, cpf],
    tel: [required],
    birthday: [required, adult],
    state: [required],
    city: [required, noWhitespace],
    password: [required, password],
    password_confirmation: [required, matchesPassword],
    travelRequirements: [requiredCheckbox],
    rules: [requiredCheckbox],
    terms: [requiredCheckbox],
    captcha: [requiredCaptcha],
  };
  const form = useForm(INITIAL_VALUES, rules);
  const captcha = useCaptchaReset(() => form.setValue("captcha", ""));
  const { values } = form;
  const canContinue =
    values.terms &&
    values.travelRequirements &&
    values.rules &&
    identifiersFilled({ ...fields, cpf: !station.no_cpf }, values) &&
    !isPending;

  const submit = form.handleSubmit((filled) =>
    onSubmit(
      {
        email: fields.email ? normalizeEmail(filled.email) : null,
        cpf: station.no_cpf ? null : digitsOf(filled.cpf),
        name: filled.name.trim(),
        tel: digitsOf(filled.tel),
        birthday: dateToApi(filled.birthday),
        state: filled.state,
        city: filled.city.trim(),
        captcha: filled.captcha,
      },
      { password: filled.password, password_confirmation: filled.password_confirmation },
      captcha.reset,
    ),
  );

  return (
    <form className="sign-up-form" onSubmit={submit} noValidate>
      <TextField label="Nome completo" autoComplete="name" {...bindText(form, "name")} />
      {fields.email && <TextField label="E-mail" type="email" autoComplete="email" {...bindText(form, "email")} />}
      {!station.no_cpf && <TextField label="CPF" inputMode="numeric" {...bindText(form, "cpf", maskCpf)} />}
      <PhoneField {...bindText(form, "tel", maskPhone)} />
      <BirthdayField {...bindText(form, "birthday", maskDate)} />
      <div className="field-row">
        <SelectField
          label="Estado"
          {...bindText(form, "state")}
          // Another state's city is not this one's: the city is chosen again.
          onChange={(state) => form.setValues({ state, city: "" })}
        >
          <StateOptions />
        </SelectField>
        <CityField state={values.state} {...bindText(form, "city")} />
      </div>
      <NewPasswordFields
        password={bindText(form, "password")}
        confirmation={bindText(form, "password_confirmation")}
      />
      <CheckboxField
        label="Declaro que cumpro os requisitos de viagem da promoção (documentos válidos e disponibilidade nas datas)."
        {...bindCheckbox(form, "travelRequirements")}
      />
      <CheckboxField label="Li e aceito o regulamento da promoção." {...bindCheckbox(form, "rules")} />
      <TermsCheckbox {...bindCheckbox(form, "terms")} />
      <CaptchaWidget key={captcha.key} onChange={(token) => form.setValue("captcha", token)} error={form.errors.captcha} />
      <div className="sign-up__actions">
        <button type="submit" className="button button--primary" disabled={!canContinue}>
          {isPending ? "Enviando..." : "Cadastrar"}
        </button>
      </div>
      <LoginLink />
    </form>
  );
}

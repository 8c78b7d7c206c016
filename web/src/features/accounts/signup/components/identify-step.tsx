import { TermsCheckbox } from "@/features/accounts/signup/components/terms-checkbox";
import { identifiersFilled, normalizeEmail, step0Fields } from "@/features/accounts/signup/components/step0-fields";
import type { Step0Data } from "@/features/accounts/signup/components/use-participant-flow";
import { bindCheckbox, bindText, TextField } from "@/components/form/fields";
import { useForm, type FormRules } from "@/components/form/use-form";
import { useStation } from "@/features/stations";
import { digitsOf, maskCpf, maskPhone } from "@/lib/masks";
import { cpf, email, noWhitespace, required, requiredCheckbox } from "@/lib/validators";
import { LoginLink, PhoneField } from "@/components/form/common-fields";

interface IdentifyValues {
  email: string;
  cpf: string;
  name: string;
  tel: string;
  terms: boolean;
}

const INITIAL_VALUES: IdentifyValues = { email: "", cpf: "", name: "", tel: "", terms: false };

interface IdentifyStepProps {
  isPending: boolean;
  onSubmit: (data: Step0Data) => void;
}

/** Step 0: who the person is (e-mail, CPF, or name and phone, by station kind) and the terms. */
export function IdentifyStep({ isPending, onSubmit }: IdentifyStepProps) {
  const station = useStation();
  const fields = step0Fields(station);
  const rules: FormRules<IdentifyValues> = {
    email: fields.email ? [required, email] : [],
    cpf: fields.cpf ? [required, cpf] : [],
    name: fields.nameAndTel ? [required, noWhitespace] : [],
    tel: fields.nameAndTel ? [required] : [],
    terms: [requiredCheckbox],
  };
  const form = useForm(INITIAL_VALUES, rules);
  const canContinue = form.values.terms && identifiersFilled(fields, form.values) && !isPending;

  const submit = form.handleSubmit((values) =>
    onSubmit({
      email: fields.email ? normalizeEmail(values.email) : null,
      cpf: fields.cpf ? digitsOf(values.cpf) : null,
      name: fields.nameAndTel ? values.name.trim() : null,
      tel: fields.nameAndTel ? digitsOf(values.tel) : null,
      birthday: null,
      state: null,
      city: null,
    }),
  );

  return (
    <form className="sign-up-form" onSubmit={submit} noValidate>
      {fields.nameAndTel && (
        <TextField label="Nome completo" autoComplete="name" {...bindText(form, "name")} />
      )}
      {fields.email && (
        <TextField label="E-mail" type="email" autoComplete="email" {...bindText(form, "email")} />
      )}
      {fields.cpf && <TextField label="CPF" inputMode="numeric" {...bindText(form, "cpf", maskCpf)} />}
      {fields.nameAndTel && (
        <PhoneField {...bindText(form, "tel", maskPhone)} />
      )}
      <TermsCheckbox {...bindCheckbox(form, "terms")} />
      <div className="sign-up__actions">
        <button type="submit" className="button button--primary" disabled={!canContinue}>
          {isPending ? "Verificando..." : "Continuar"}
        </button>
      </div>
      <LoginLink />
    </form>
  );
}

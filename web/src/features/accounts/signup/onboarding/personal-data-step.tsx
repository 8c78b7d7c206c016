import { useUpdateParticipant } from "@/features/accounts/signup/api/update-participant";
import { AddressFields, type AddressValues } from "@/features/accounts/signup/onboarding/address-fields";
import { notCepMark } from "@/features/address";
import { bindText, TextField } from "@/components/form/fields";
import { adult, matchesPassword } from "@/components/form/rules";
import { useForm, type FormRules } from "@/components/form/use-form";
import { useStation } from "@/features/stations";
import { dateToApi, digitsOf, maskCpf, maskDate, maskPhone } from "@/lib/masks";
import { cep, cpf, email, noWhitespace, password, required } from "@/lib/validators";
import type { ParticipantUpdate, User } from "@/types/api";
import { BirthdayField, NewPasswordFields, PhoneField } from "@/components/form/common-fields";

interface PersonalDataValues extends AddressValues {
  name: string;
  cpf: string;
  tel: string;
  birthday: string;
  email: string;
  password: string;
  password_confirmation: string;
}

/** "yyyy-MM-dd..." from the API as the form's dd/MM/yyyy. */
function birthdayForForm(birthday: string | null): string {
  const match = birthday ? /^(\d{4})-(\d{2})-(\d{2})/.exec(birthday) : null;
  return match ? `${match[3]}/${match[2]}/${match[1]}` : "";
}

function initialValues(user: User): PersonalDataValues {
  return {
    name: user.name,
    cpf: "",
    tel: maskPhone(user.tel ?? ""),
    birthday: birthdayForForm(user.birthday),
    email: "",
    password: "",
    password_confirmation: "",
    zipcode: "",
    address_line_1: "",
    address_number: "",
    address_line_2: "",
    neighborhood: "",
    city: user.city ?? "",
    state: user.state ?? "",
  };
}

const ADDRESS_KEYS = ["zipcode", "address_line_1", "address_number", "address_line_2", "neighborhood"] as const;

function addressStarted(values: PersonalDataValues): boolean {
  return ADDRESS_KEYS.some((key) => values[key].trim() !== "");
}

function requiredWithAddress(value: string, values: PersonalDataValues): string | undefined {
  return addressStarted(values) ? required(value.trim()) : undefined;
}

interface PersonalDataStepProps {
  user: User;
  onDone: () => void;
}

/**
 * Step 2 of the onboarding: the member's data. The CPF is asked only when the account lacks
 * one (required unless the station is public), the e-mail only when it has none and the
 * password whenever the account has none: the API refuses any update of a password-less
 * account that does not send one (simple sign-ups may have an e-mail but no password).
 */
export function PersonalDataStep({ user, onDone }: PersonalDataStepProps) {
  const station = useStation();
  const update = useUpdateParticipant(user.id);
  const asksCpf = !user.cpf && !station.no_cpf;
  const asksEmail = !user.email;
  const asksPassword = !user.has_password;
  const rules: FormRules<PersonalDataValues> = {
    name: [required, noWhitespace],
    // Public stations take members without a CPF, so there it may stay blank.
    cpf: asksCpf ? (station.public ? [cpf] : [required, cpf]) : [],
    tel: [required],
    birthday: [required, adult],
    state: [required],
    city: [required, noWhitespace, notCepMark],
    // The address is optional, but one started needs CEP, street and number (as the API says).
    zipcode: [requiredWithAddress, cep],
    address_line_1: [requiredWithAddress, notCepMark],
    address_number: [requiredWithAddress],
    email: asksEmail ? [required, email] : [],
    password: asksPassword ? [required, password] : [],
    password_confirmation: asksPassword ? [required, matchesPassword] : [],
  };
  const form = useForm(initialValues(user), rules);

  const submit = form.handleSubmit((values) => {
    const changes: ParticipantUpdate = {
      name: values.name.trim(),
      tel: digitsOf(values.tel),
      birthday: dateToApi(values.birthday),
      state: values.state,
      city: values.city.trim(),
      ...(addressStarted(values) && {
        zipcode: digitsOf(values.zipcode),
        address_line_1: values.address_line_1.trim(),
        address_number: values.address_number.trim(),
        address_line_2: values.address_line_2.trim(),
        neighborhood: values.neighborhood.trim(),
      }),
      ...(asksCpf && values.cpf !== "" && { cpf: digitsOf(values.cpf) }),
      ...(asksEmail && { email: values.email.trim().toLowerCase() }),
      ...(asksPassword && {
        password: values.password,
        password_confirmation: values.password_confirmation,
      }),
    };
    update.mutate(changes, { onSuccess: onDone });
  });

  return (
    <form className="sign-up-form" onSubmit={submit} noValidate>
      <TextField label="Nome completo" autoComplete="name" {...bindText(form, "name")} />
      {asksCpf && <TextField label="CPF" inputMode="numeric" {...bindText(form, "cpf", maskCpf)} />}
      <PhoneField {...bindText(form, "tel", maskPhone)} />
      <BirthdayField {...bindText(form, "birthday", maskDate)} />
      <AddressFields form={form} />
      {asksEmail && <TextField label="E-mail" type="email" autoComplete="email" {...bindText(form, "email")} />}
      {asksPassword && (
        <NewPasswordFields password={bindText(form, "password")} confirmation={bindText(form, "password_confirmation")} />
      )}
      <div className="sign-up__actions">
        <button type="submit" className="button button--primary" disabled={update.isPending}>
          {update.isPending ? "Salvando..." : "Continuar"}
        </button>
      </div>
    </form>
  );
}

// Fields several forms share, with their labels and input hints in one place.
import { Link } from "react-router";
import { TextField, type TextFieldProps } from "@/components/form/fields";

type PresetFieldProps = Omit<TextFieldProps, "label">;

/** dd/MM/yyyy; give it `bindText(form, "birthday", maskDate)`. */
export function BirthdayField(props: PresetFieldProps) {
  return (
    <TextField label="Data de nascimento" inputMode="numeric" placeholder="dd/mm/aaaa" autoComplete="bday" {...props} />
  );
}

/** Give it `bindText(form, "tel", maskPhone)`. */
export function PhoneField(props: PresetFieldProps) {
  return <TextField label="Telefone" type="tel" autoComplete="tel-national" {...props} />;
}

/** A new password typed twice. */
interface NewPasswordFieldsProps {
  password: PresetFieldProps;
  confirmation: PresetFieldProps;
}

export function NewPasswordFields({ password, confirmation }: NewPasswordFieldsProps) {
  return (
    <>
      <TextField label="Senha" type="password" autoComplete="new-password" {...password} />
      <TextField label="Confirme a senha" type="password" autoComplete="new-password" {...confirmation} />
    </>
  );
}

export function LoginLink() {
  return (
    <p className="sign-up__footer">
      Já tem cadastro? <Link to="/login">Entrar</Link>
    </p>
  );
}

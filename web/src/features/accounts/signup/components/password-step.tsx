import { bindText } from "@/components/form/fields";
import { matchesPassword } from "@/components/form/rules";
import { useForm } from "@/components/form/use-form";
import type { Passwords } from "@/features/accounts/signup/components/use-participant-flow";
import { password, required } from "@/lib/validators";
import { NewPasswordFields } from "@/components/form/common-fields";

const INITIAL_VALUES: Passwords = { password: "", password_confirmation: "" };

interface PasswordStepProps {
  isPending: boolean;
  onSubmit: (passwords: Passwords) => void;
  onBack: () => void;
}

/** Step 1: the password, typed twice. */
export function PasswordStep({ isPending, onSubmit, onBack }: PasswordStepProps) {
  const form = useForm(INITIAL_VALUES, {
    password: [required, password],
    password_confirmation: [required, matchesPassword],
  });

  return (
    <form className="sign-up-form" onSubmit={form.handleSubmit(onSubmit)} noValidate>
      <NewPasswordFields
        password={bindText(form, "password")}
        confirmation={bindText(form, "password_confirmation")}
      />
      <div className="sign-up__actions">
        <button type="submit" className="button button--primary" disabled={isPending}>
          {isPending ? "Enviando..." : "Cadastrar"}
        </button>
        <button type="button" className="button button--secondary" onClick={onBack} disabled={isPending}>
          Voltar
        </button>
      </div>
    </form>
  );
}

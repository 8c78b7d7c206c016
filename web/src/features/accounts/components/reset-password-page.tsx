import { Link, useParams } from "react-router";
import { useUpdatePassword } from "@/features/accounts/api/password-recovery";
import { AccountLayout } from "@/features/accounts/components/account-layout";
import { bindText, TextField } from "@/components/form/fields";
import { matchesPassword } from "@/components/form/rules";
import { useForm } from "@/components/form/use-form";
import { password as passwordRule, required } from "@/lib/validators";

/** /redefinir-senha/{userHash}/{userEmail}: the e-mailed link's page for a new password. */
export function ResetPasswordPage() {
  const { userHash = "", userEmail = "" } = useParams();
  const form = useForm(
    { password: "", password_confirmation: "" },
    { password: [required, passwordRule], password_confirmation: [required, matchesPassword] },
  );
  const update = useUpdatePassword();

  const onSubmit = form.handleSubmit((values) => update.mutate({ ...values, userHash, userEmail }));

  const busy = update.isPending || update.isSuccess;

  return (
    <AccountLayout title="Redefinir senha">
      <p>
        Crie uma nova senha para <strong>{userEmail}</strong>.
      </p>
      <form className="account-form" noValidate onSubmit={onSubmit}>
        <TextField label="Nova senha" type="password" autoComplete="new-password" {...bindText(form, "password")} />
        <TextField
          label="Confirme a nova senha"
          type="password"
          autoComplete="new-password"
          {...bindText(form, "password_confirmation")}
        />
        <button className="button button--primary" type="submit" disabled={busy} aria-busy={busy}>
          Salvar nova senha
        </button>
      </form>
      <div className="account-links">
        <Link to="/login">Voltar para o login</Link>
      </div>
    </AccountLayout>
  );
}

import { Link } from "react-router";
import { useRequestPasswordReset } from "@/features/accounts/api/password-recovery";
import { AccountLayout } from "@/features/accounts/components/account-layout";
import { bindText, TextField } from "@/components/form/fields";
import { useForm } from "@/components/form/use-form";
import { email, required } from "@/lib/validators";

export const RESET_REQUESTED_TEXT = "Sucesso! Verifique sua caixa de e-mails";

/** /esqueci-minha-senha: asks for a reset link by e-mail. */
export function ForgotPasswordPage() {
  const form = useForm({ email: "" }, { email: [required, email] });
  const request = useRequestPasswordReset();

  const onSubmit = form.handleSubmit((values) => request.mutate(values.email.trim()));

  return (
    <AccountLayout title="Esqueci minha senha">
      {request.isSuccess ? (
        <p className="account-note" role="status">
          {RESET_REQUESTED_TEXT}
        </p>
      ) : (
        <>
          <p>Informe o e-mail da sua conta e enviaremos um link para você criar uma nova senha.</p>
          <form className="account-form" noValidate onSubmit={onSubmit}>
            <TextField label="E-mail" type="email" autoComplete="email" {...bindText(form, "email")} />
            <button
              className="button button--primary"
              type="submit"
              disabled={form.values.email === "" || request.isPending}
              aria-busy={request.isPending}
            >
              Enviar
            </button>
          </form>
        </>
      )}
      <div className="account-links">
        <Link to="/login">Voltar para o login</Link>
      </div>
    </AccountLayout>
  );
}

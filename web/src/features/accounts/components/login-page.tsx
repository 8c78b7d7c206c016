import { Link, Navigate, useLocation } from "react-router";
import { useLogin } from "@/features/accounts/api/login";
import { AccountLayout } from "@/features/accounts/components/account-layout";
import { locationStateOf, type LoginLocationState } from "@/features/accounts/location-state";
import { useSession } from "@/features/session";
import { bindText, TextField } from "@/components/form/fields";
import { useForm } from "@/components/form/use-form";
import { useStation } from "@/features/stations";
import { digitsOf, maskCpf } from "@/lib/masks";
import { cpf, email, required } from "@/lib/validators";
import type { LoginCredentials } from "@/types/api";

export const ACTIVATED_NOTE = "Sucesso! Código validado";
export const RECOVERED_NOTE = "Sucesso! Você já pode logar com a nova senha";

function noteFor(state: unknown): string | null {
  const { wasActived, wasRecovered } = locationStateOf<LoginLocationState>(state);
  if (wasActived) return ACTIVATED_NOTE;
  if (wasRecovered) return RECOVERED_NOTE;
  return null;
}

/** /login: CPF or e-mail (as the station logs in) and password. */
export function LoginPage() {
  const station = useStation();
  const session = useSession();
  const note = noteFor(useLocation().state);
  const withCpf = station.login_with === "cpf";
  const form = useForm(
    { identifier: "", password: "" },
    { identifier: withCpf ? [required, cpf] : [required, email], password: [required] },
  );
  const loginMutation = useLogin(station.id);

  // Someone already signed in has nothing to do here; once a login starts on this page, the
  // login itself decides where to go.
  if (session !== null && loginMutation.isIdle) return <Navigate to="/" replace />;

  const onSubmit = form.handleSubmit(({ identifier, password }) => {
    const credentials: LoginCredentials = withCpf
      ? { cpf: digitsOf(identifier), password }
      : { email: identifier.trim(), password };
    loginMutation.mutate(credentials);
  });

  const busy = loginMutation.isPending || loginMutation.isSuccess;
  const filled = form.values.identifier !== "" && form.values.password !== "";

  return (
    <AccountLayout title="Acesse a sua conta">
      {note !== null && (
        <p className="account-note" role="status">
          {note}
        </p>
      )}
      <form className="account-form" noValidate onSubmit={onSubmit}>
        {withCpf ? (
          <TextField
            label="CPF"
            inputMode="numeric"
            autoComplete="username"
            placeholder="999.999.999-99"
            {...bindText(form, "identifier", maskCpf)}
          />
        ) : (
          <TextField label="E-mail" type="email" autoComplete="username" {...bindText(form, "identifier")} />
        )}
        <TextField label="Senha" type="password" autoComplete="current-password" {...bindText(form, "password")} />
        <button className="button button--primary" type="submit" disabled={!filled || busy} aria-busy={busy}>
          Entrar
        </button>
      </form>
      <div className="account-links">
        <Link to="/esqueci-minha-senha">Esqueci minha senha</Link>
        <Link to="/cadastrar">Cadastre-se</Link>
      </div>
    </AccountLayout>
  );
}

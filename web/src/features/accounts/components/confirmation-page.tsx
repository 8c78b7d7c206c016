import { Link, useLocation, useParams } from "react-router";
import { useToast } from "@/components/toasts/use-toast";
import { useActivateParticipant } from "@/features/accounts/api/activate-participant";
import { RESEND_WAIT_SECONDS, useResendCode } from "@/features/accounts/api/resend-code";
import { AccountLayout } from "@/features/accounts/components/account-layout";
import { locationStateOf, type ConfirmacaoLocationState } from "@/features/accounts/location-state";
import { useCountdown } from "@/features/accounts/use-countdown";
import { bindText, TextField } from "@/components/form/fields";
import { useForm } from "@/components/form/use-form";
import { ApiError } from "@/lib/api-client";
import { maskCode } from "@/lib/masks";
import { minLength, required } from "@/lib/validators";

const CODE_LENGTH = 6;

/**
 * /confirmacao/{email}: after sign-up or a failed activation. A code was just sent, so the
 * resend button waits its 60 seconds from the moment the page opens.
 */
export function ConfirmationPage() {
  const { email = "" } = useParams();
  const { userId } = locationStateOf<ConfirmacaoLocationState>(useLocation().state);
  const showToast = useToast();
  const form = useForm({ code: "" }, { code: [required, minLength(CODE_LENGTH)] });
  const activation = useActivateParticipant();
  const resend = useResendCode({ email, userId });
  const countdown = useCountdown(RESEND_WAIT_SECONDS);

  const onSubmit = form.handleSubmit(({ code }) => activation.mutate({ email, hash: code, user_id: userId }));

  const onResend = () => {
    resend.mutate(undefined, {
      onSuccess: (waitSeconds) => {
        showToast({ title: "Sucesso!", text: "E-mail enviado com sucesso" });
        countdown.restart(waitSeconds);
      },
      onError: (error) => {
        // Asked too soon (another tab, a reload): wait as long as the server says.
        if (error instanceof ApiError && error.status === 429) {
          countdown.restart(error.retryAfterSeconds ?? RESEND_WAIT_SECONDS);
        }
      },
    });
  };

  const waiting = countdown.secondsLeft > 0;
  const activating = activation.isPending || activation.isSuccess;

  return (
    <AccountLayout title="Confirme o seu cadastro">
      <p>
        Enviamos um código de 6 dígitos e um link de ativação para <strong>{email}</strong>. Digite o código abaixo
        ou clique no link do e-mail para ativar a sua conta.
      </p>
      <form className="account-form" noValidate onSubmit={onSubmit}>
        <div className="account-code">
          <TextField
            label="Código de verificação"
            inputMode="numeric"
            autoComplete="one-time-code"
            {...bindText(form, "code", maskCode)}
          />
        </div>
        <button className="button button--primary" type="submit" disabled={activating} aria-busy={activating}>
          Validar código
        </button>
      </form>
      <button
        className="button button--secondary"
        type="button"
        disabled={waiting || resend.isPending}
        onClick={onResend}
      >
        {waiting ? `Reenviar código em ${countdown.secondsLeft}s` : "Reenviar código"}
      </button>
      <div className="account-links">
        <Link to="/login">Voltar para o login</Link>
      </div>
    </AccountLayout>
  );
}

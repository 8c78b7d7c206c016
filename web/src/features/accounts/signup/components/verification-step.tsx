import type { FormEvent } from "react";
import { Link, useNavigate } from "react-router";
import { useConfirmationMethod } from "@/features/accounts/signup/api/confirmation-method";
import type { AffiliateInfo } from "@/types/api";
import { useStation } from "@/features/stations";

interface VerificationStepProps {
  affiliate: AffiliateInfo;
  userId: number;
}

/** Where the support can be reached when the account has no e-mail to send the code to. */
function SupportFallback() {
  const station = useStation();
  return (
    <p className="sign-up__text" role="status">
      Não encontramos um e-mail no seu cadastro para enviar o código de verificação.{" "}
      {station.phone ? (
        <>
          Entre em contato com o suporte pelo telefone <a href={`tel:${station.phone}`}>{station.phone}</a>.
        </>
      ) : station.contact_mail ? (
        <>
          Entre em contato com o suporte pelo e-mail{" "}
          <a href={`mailto:${station.contact_mail}`}>{station.contact_mail}</a>.
        </>
      ) : (
        <>
          Entre em contato pela página de <Link to="/suporte">suporte</Link>.
        </>
      )}
    </p>
  );
}

/** Step 2: pick where the identity verification code goes (the e-mail of the record, masked). */
export function VerificationStep({ affiliate, userId }: VerificationStepProps) {
  const station = useStation();
  const navigate = useNavigate();
  const confirmationMethod = useConfirmationMethod();

  if (!affiliate.email) return <SupportFallback />;
  const maskedEmail = affiliate.email;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    confirmationMethod.mutate(
      {
        station_id: station.id,
        user_id: userId,
        type: "email",
        email: maskedEmail,
        tel: affiliate.tel,
        id: affiliate.id,
      },
      {
        onSuccess: () => void navigate(`/confirmacao/${encodeURIComponent(maskedEmail)}`, { state: { userId } }),
      },
    );
  };

  return (
    <form className="sign-up-form" onSubmit={submit}>
      <p className="sign-up__text">Escolha onde você quer receber o código de verificação da sua identidade.</p>
      <fieldset className="field">
        <legend className="field__label">Enviar o código para</legend>
        <label className="field--checkbox">
          <input type="radio" name="confirmation-method" value="email" defaultChecked />
          <span>E-mail: {maskedEmail}</span>
        </label>
      </fieldset>
      <div className="sign-up__actions">
        <button type="submit" className="button button--primary" disabled={confirmationMethod.isPending}>
          {confirmationMethod.isPending ? "Enviando..." : "Enviar código"}
        </button>
      </div>
    </form>
  );
}

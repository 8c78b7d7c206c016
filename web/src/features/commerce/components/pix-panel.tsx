// The PIX payment screen's content (spec 002 sections 2 and 4): the amount, the QR code, the
// "copia e cola" code with its copy button, five steps, 'Verificar pagamento' and the
// countdown to the charge's expiry. What happens on a check or at the expiry is the
// caller's (the toasts of the error catalogue, back to step 0).
import { useId, type ReactNode } from "react";
import { CopyButton } from "@/features/commerce/components/copy-button";
import { Countdown } from "@/features/commerce/components/countdown";
import { QrCode } from "@/features/commerce/components/qr-code";
import { formatBrl } from "@/features/commerce/money";
import "./commerce.css";

export const VERIFY_PAYMENT_TEXT = "Verificar pagamento";

export const PIX_STEPS = [
  "Abra o aplicativo do seu banco ou da sua carteira digital e entre na área Pix.",
  "Escolha pagar com QR Code e aponte a câmera para o código acima, ou escolha Pix Copia e Cola e cole o código copiado.",
  "Confira o valor e o nome do recebedor antes de continuar.",
  "Confirme o pagamento no aplicativo com a sua senha ou biometria.",
  `Volte a esta tela e toque em '${VERIFY_PAYMENT_TEXT}' para concluir o seu pedido.`,
] as const;

interface PixPanelProps {
  amountCents: number;
  /** The QR code's image (a URL or a data: URI); without it the code is drawn here. */
  qrImageSrc?: string | null;
  /** The BR Code ("copia e cola"). */
  code: string;
  /** The charge's expiry instant, as the server gave it. */
  expiresAt: string;
  onExpire: () => void;
  onVerify: () => void;
  /** The check is on its way. */
  verifying?: boolean;
  /** More actions under the check (the sandbox's simulated payment). */
  children?: ReactNode;
}

export function PixPanel({
  amountCents,
  qrImageSrc,
  code,
  expiresAt,
  onExpire,
  onVerify,
  verifying = false,
  children,
}: PixPanelProps) {
  const titleId = useId();
  const codeId = useId();
  return (
    <section className="pix-panel" aria-labelledby={titleId}>
      <h2 id={titleId}>Pagamento com PIX</h2>
      <p>
        Valor a pagar
        <br />
        <strong className="pix-panel__amount">{formatBrl(amountCents)}</strong>
      </p>
      {qrImageSrc ? (
        <img className="pix-panel__qr" src={qrImageSrc} alt="QR Code do pagamento PIX" />
      ) : (
        <QrCode className="pix-panel__qr" value={code} label="QR Code do pagamento PIX" />
      )}
      <label htmlFor={codeId}>Código PIX copia e cola</label>
      <textarea
        id={codeId}
        className="pix-panel__code"
        readOnly
        value={code}
        onFocus={(event) => event.currentTarget.select()}
      />
      <CopyButton text={code} />
      <Countdown expiresAt={expiresAt} onExpire={onExpire} label="O código expira em" />
      <ol className="pix-panel__steps" aria-label="Como pagar">
        {PIX_STEPS.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      <div className="pix-panel__actions">
        <button
          type="button"
          className="button button--primary"
          aria-disabled={verifying}
          aria-busy={verifying}
          onClick={() => {
            if (!verifying) onVerify();
          }}
        >
          {VERIFY_PAYMENT_TEXT}
        </button>
        {children}
      </div>
    </section>
  );
}

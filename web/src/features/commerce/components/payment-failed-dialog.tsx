// The failed-payment dialog (spec 002 sections 2, 4 and 8): why the order failed, each of
// the server's messages on its own, and the offer of another payment method: 'Sim' goes
// back to the payment step, 'Cancelar' (or Escape) closes.
import { ConfirmDialog } from "@/components/confirm-dialog";
import "./commerce.css";

export const PAYMENT_FAILED_TITLE = "Pagamento não realizado";
export const PAYMENT_FAILED_LEAD = "Não foi possível completar sua transação. Por favor, tente novamente.";
export const OTHER_METHOD_QUESTION = "Deseja tentar outra forma de pagamento?";

/** The catalogue's text for one server message. */
export function paymentFailedText(message: string): string {
  return `${PAYMENT_FAILED_LEAD} Motivo: ${message}`;
}

interface PaymentFailedDialogProps {
  /** The server's messages (response.data.message, or each of a list). */
  messages: readonly string[];
  onRetry: () => void;
  onCancel: () => void;
}

export function PaymentFailedDialog({ messages, onRetry, onCancel }: PaymentFailedDialogProps) {
  const [only] = messages;
  return (
    <ConfirmDialog
      title={PAYMENT_FAILED_TITLE}
      confirmLabel="Sim"
      onConfirm={onRetry}
      cancelLabel="Cancelar"
      onCancel={onCancel}
    >
      {messages.length <= 1 ? (
        <p className="commerce-dialog__message">{only === undefined ? PAYMENT_FAILED_LEAD : paymentFailedText(only)}</p>
      ) : (
        <>
          <p className="commerce-dialog__message">{PAYMENT_FAILED_LEAD}</p>
          <ul className="commerce-dialog__reasons">
            {messages.map((message, index) => (
              <li key={`${index}-${message}`}>Motivo: {message}</li>
            ))}
          </ul>
        </>
      )}
      <p className="commerce-dialog__message">{OTHER_METHOD_QUESTION}</p>
    </ConfirmDialog>
  );
}

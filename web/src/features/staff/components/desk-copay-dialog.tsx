// Recording a health appointment's co-payment: the amount the member paid; half of it is
// credited to them as cashback (held 90 days). Once per appointment: a second one is refused
// (409) in the API's words.
import { useState } from "react";
import { TextField } from "@/components/form/fields";
import { Modal } from "@/components/modal";
import { useSnackbar } from "@/components/toasts/use-toast";
import { useRecordCopay } from "@/features/staff/api/desk";
import type { DeskAppointment } from "@/types/api";
import { formatReais } from "@/features/staff/format";
import { toastForError } from "@/lib/api-client";
import { maskCurrencyBrl } from "@/lib/currency-mask";
import { digitsOf } from "@/lib/masks";
import { MESSAGES } from "@/lib/validators";

export const COPAY_RECORDED = "Coparticipação registrada.";
export const COPAY_POSITIVE = "Informe um valor maior que zero.";

export function CopayDialog({ appointment, onClose }: { appointment: DeskAppointment; onClose: () => void }) {
  const record = useRecordCopay();
  const showSnackbar = useSnackbar();
  const [amount, setAmount] = useState("");
  const [submitted, setSubmitted] = useState(false);
  const cents = Number(digitsOf(amount) || "0");
  const error = amount === "" ? MESSAGES.required : cents <= 0 ? COPAY_POSITIVE : undefined;

  return (
    <Modal title={`Registrar coparticipação do agendamento ${appointment.id}`} onDismiss={record.isPending ? undefined : onClose}>
      <form
        className="desk-dialog-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setSubmitted(true);
          if (error) return;
          record.mutate(
            { id: appointment.id, amountCents: cents },
            {
              onSuccess: () => {
                showSnackbar(COPAY_RECORDED);
                onClose();
              },
            },
          );
        }}
      >
        <p>{appointment.member?.name ?? "Membro sem cadastro"}</p>
        <TextField
          label="Valor da coparticipação"
          inputMode="numeric"
          value={amount}
          onChange={(text) => setAmount(maskCurrencyBrl(text))}
          hint={cents > 0 ? `Cashback ao membro: ${formatReais(Math.floor(cents / 2))}, liberado em 90 dias.` : "Metade do valor volta ao membro como cashback, liberado em 90 dias."}
          error={submitted ? error : undefined}
        />
        {record.isError && (
          <p className="ops-error-summary" role="alert">
            {toastForError(record.error).text}
          </p>
        )}
        <div className="modal__actions">
          <button type="submit" className="button button--primary" disabled={record.isPending} aria-busy={record.isPending}>
            Registrar
          </button>
          <button type="button" className="button button--secondary" disabled={record.isPending} onClick={onClose}>
            Voltar
          </button>
        </div>
      </form>
    </Modal>
  );
}

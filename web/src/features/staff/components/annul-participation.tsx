// On the page of a job about a participation (its credit, trophies, lucky numbers): support
// staff annul the participation, with a reason, and what it granted is taken back. The
// server judges and audits it; a refusal (no reason, annulled already) shows in the dialog.
import { useState } from "react";
import { useSnackbar } from "@/components/toasts/use-toast";
import { TextField } from "@/components/form/fields";
import { useAnnulParticipation } from "@/features/staff/api/participations";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { toastForError } from "@/lib/api-client";

export const REASON_MAX = 500;
export const REASON_REQUIRED = "Informe o motivo da anulação.";

/** Centavos of the wallet as the console shows amounts: "10,00". */
function amount(cents: number): string {
  return (cents / 100).toLocaleString("pt-BR", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

export function AnnulParticipation({ participationId }: { participationId: number }) {
  const annul = useAnnulParticipation();
  const showSnackbar = useSnackbar();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const [tried, setTried] = useState(false);
  const missing = tried && reason.trim() === "";
  const refusal = annul.isError ? toastForError(annul.error).text : undefined;

  const close = () => {
    setOpen(false);
    setTried(false);
    annul.reset();
  };

  const submit = () => {
    setTried(true);
    if (reason.trim() === "") return;
    annul.mutate(
      { id: participationId, reason },
      {
        onSuccess: (annulled) => {
          close();
          setReason("");
          const owed =
            annulled.debt_cents > 0 ? ` ${amount(annulled.debt_cents)} pontos já utilizados ficam como débito.` : "";
          showSnackbar(`Participação anulada; ${amount(annulled.reversed_cents)} pontos estornados.${owed}`);
        },
      },
    );
  };

  return (
    <>
      <button type="button" className="button button--secondary" onClick={() => setOpen(true)}>
        Anular participação
      </button>
      {open && (
        <ConfirmDialog
          title={`Anular a participação ${participationId}?`}
          confirmLabel="Anular participação"
          onConfirm={submit}
          onCancel={close}
          busy={annul.isPending}
        >
          <p>
            Os pontos que ela creditou são estornados, e os troféus e números da sorte que ela deu, retirados. A
            anulação fica registrada com o motivo.
          </p>
          <TextField
            label="Motivo"
            value={reason}
            maxLength={REASON_MAX}
            onChange={setReason}
            error={missing ? REASON_REQUIRED : refusal}
          />
        </ConfirmDialog>
      )}
    </>
  );
}

// Cancelling the plan (spec 002): the reason is asked among the spec's four, then
// POST /subscriptions/cancel; a refusal reads 'Erro: {first message}'.
import { useId, useState } from "react";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { useSnackbar } from "@/components/toasts/use-toast";
import { useCancelPlan } from "@/features/subscriptions/api/subscription";
import { SUCCESS_TEXT, cancelErrorText } from "@/features/subscriptions/messages";
import { CANCEL_REASONS } from "@/features/subscriptions/plans";

export const CANCEL_PLAN_TITLE = "Cancelar plano";

interface CancelPlanDialogProps {
  onClose: () => void;
  /** What success says: the list screen has its own text. */
  successText?: string;
}

export function CancelPlanDialog({ onClose, successText = SUCCESS_TEXT }: CancelPlanDialogProps) {
  const [reason, setReason] = useState<string>(CANCEL_REASONS[0]);
  const cancel = useCancelPlan();
  const showSnackbar = useSnackbar();
  const legendId = useId();
  const confirm = () =>
    cancel.mutate(
      { cancelReason: reason },
      {
        onSuccess: () => {
          showSnackbar(successText);
          onClose();
        },
        onError: (error) => showSnackbar(cancelErrorText(error)),
      },
    );
  return (
    <ConfirmDialog
      title={CANCEL_PLAN_TITLE}
      confirmLabel="Confirmar cancelamento"
      onConfirm={confirm}
      onCancel={onClose}
      busy={cancel.isPending}
    >
      <p>Seu plano continua ativo até o fim do período já pago.</p>
      <fieldset className="cancel-reasons" aria-labelledby={legendId}>
        <legend id={legendId}>Por que você está cancelando?</legend>
        {CANCEL_REASONS.map((option) => (
          <label key={option} className="cancel-reasons__option">
            <input
              type="radio"
              name="cancelReason"
              value={option}
              checked={reason === option}
              onChange={() => setReason(option)}
            />
            {option}
          </label>
        ))}
      </fieldset>
    </ConfirmDialog>
  );
}

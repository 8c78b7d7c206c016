// The app's one confirmation dialog: a question, what it is about, and two answers. The
// answer that leaves everything as it was also comes with Escape and a click outside, unless
// the confirmed action is on its way (`busy`). The Modal underneath keeps the keyboard inside
// and gives the focus back to what opened it.
import type { ReactNode } from "react";
import { Modal } from "@/components/modal";

interface ConfirmDialogProps {
  title: string;
  children?: ReactNode;
  /** The button that does it; without it the dialog only informs and can be closed. */
  confirmLabel?: string;
  onConfirm?: () => void;
  /** The answer that changes nothing ('Voltar' unless the spec words it otherwise). */
  cancelLabel?: string;
  onCancel: () => void;
  /** Puts the answer that changes nothing first, where the spec orders them so ('Cancelar', 'Sim'). */
  cancelFirst?: boolean;
  /** The confirmed action is on its way: both answers wait, and the dialog stays. */
  busy?: boolean;
}

export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  onConfirm,
  cancelLabel = "Voltar",
  onCancel,
  cancelFirst = false,
  busy = false,
}: ConfirmDialogProps) {
  const confirm = confirmLabel && onConfirm && (
    <button type="button" className="button button--primary" disabled={busy} aria-busy={busy} onClick={onConfirm}>
      {confirmLabel}
    </button>
  );
  const cancel = (
    <button type="button" className="button button--secondary" disabled={busy} onClick={onCancel}>
      {cancelLabel}
    </button>
  );
  return (
    <Modal title={title} onDismiss={busy ? undefined : onCancel}>
      {children}
      <div className="modal__actions">
        {cancelFirst ? cancel : confirm}
        {cancelFirst ? confirm : cancel}
      </div>
    </Modal>
  );
}

import type { ReactNode } from "react";
import { Modal } from "@/components/modal";

interface ConfirmDialogProps {
  title: string;
  children: ReactNode;
  /** The button that does it; without it the dialog only informs and can be closed. */
  confirmLabel?: string;
  onConfirm?: () => void;
  onClose: () => void;
  busy?: boolean;
}

/** Asks before a staff action takes effect; "Voltar" (or Escape) leaves everything as it was. */
export function ConfirmDialog({ title, children, confirmLabel, onConfirm, onClose, busy = false }: ConfirmDialogProps) {
  return (
    <Modal title={title} onDismiss={busy ? undefined : onClose}>
      {children}
      <div className="modal__actions">
        {confirmLabel && onConfirm && (
          <button type="button" className="button button--primary" disabled={busy} aria-busy={busy} onClick={onConfirm}>
            {confirmLabel}
          </button>
        )}
        <button type="button" className="button button--secondary" disabled={busy} onClick={onClose}>
          Voltar
        </button>
      </div>
    </Modal>
  );
}

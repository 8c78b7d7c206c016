import { Modal } from "@/components/modal";
import { DELETE_QUESTION } from "@/features/feed/feed-text";

interface ConfirmDeleteProps {
  title: string;
  onConfirm: () => void;
  onCancel: () => void;
  busy?: boolean;
}

/** The spec's delete confirmation: the title, 'Tem certeza?', then 'Cancelar' or 'Sim'. */
export function ConfirmDelete({ title, onConfirm, onCancel, busy = false }: ConfirmDeleteProps) {
  return (
    <Modal title={title} onDismiss={busy ? undefined : onCancel}>
      <p>{DELETE_QUESTION}</p>
      <div className="modal__actions">
        <button type="button" className="button button--secondary" disabled={busy} onClick={onCancel}>
          Cancelar
        </button>
        <button type="button" className="button button--primary" disabled={busy} aria-busy={busy} onClick={onConfirm}>
          Sim
        </button>
      </div>
    </Modal>
  );
}

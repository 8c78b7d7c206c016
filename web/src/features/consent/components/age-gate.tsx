import { Modal } from "@/components/modal";
import { leaveSite } from "@/features/consent/leave-site";

interface AgeGateProps {
  /** Whether the "leave" answer is offered (stations with majority security). */
  canLeave: boolean;
  onConfirm: () => void;
}

/** Blocks the page until the visitor says they are an adult; it cannot be dismissed. */
export function AgeGate({ canLeave, onConfirm }: AgeGateProps) {
  return (
    <Modal title="Você tem mais de 18 anos?">
      <p>O conteúdo deste site é destinado a maiores de 18 anos.</p>
      <div className="modal__actions">
        <button type="button" className="button button--primary" onClick={onConfirm}>
          Sim, quero continuar
        </button>
        {canLeave && (
          <button type="button" className="button button--secondary" onClick={leaveSite}>
            Não, sair
          </button>
        )}
      </div>
    </Modal>
  );
}

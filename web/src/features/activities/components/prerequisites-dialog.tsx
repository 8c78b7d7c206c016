import { Link } from "react-router";
import { Modal } from "@/components/modal";
import type { ActionPrerequisite } from "@/types/api";

/** 'Quase lá': the activities the member must do before this one. */
export function PrerequisitesDialog({ missing, onClose }: { missing: ActionPrerequisite[]; onClose: () => void }) {
  return (
    <Modal title="Quase lá" onDismiss={onClose}>
      <p>Para participar desta atividade, complete antes:</p>
      <ul className="prerequisites-dialog__list">
        {missing.map((required) => (
          <li key={required.id}>
            <Link to={`/homepage/atividades/${required.id}`} onClick={onClose}>
              {required.name}
            </Link>
          </li>
        ))}
      </ul>
      <button type="button" className="button button--primary" onClick={onClose}>
        Fechar
      </button>
    </Modal>
  );
}

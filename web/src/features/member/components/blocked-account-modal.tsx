import type { MouseEvent } from "react";
import { useNavigate } from "react-router";
import { Modal } from "@/components/modal";
import { clearStoredSession } from "@/lib/session-store";

const SUPPORT_PATH = "/suporte";

/** Shown to a user flagged as deleted; the only way out is the contact page, signed out. */
export function BlockedAccountModal() {
  const navigate = useNavigate();

  const contactSupport = async (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    // Leave the member area first: clearing the session while it is still shown would
    // make its guard send the user to / instead.
    await navigate(SUPPORT_PATH, { replace: true, flushSync: true });
    clearStoredSession();
  };

  return (
    <Modal title="O seu acesso está supenso...">
      <p>Para saber mais, entre em contato com a nossa equipe.</p>
      <div className="modal__actions">
        <a className="button button--primary" href={SUPPORT_PATH} onClick={(event) => void contactSupport(event)}>
          Fale conosco
        </a>
      </div>
    </Modal>
  );
}

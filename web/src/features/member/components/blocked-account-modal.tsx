import type { MouseEvent } from "react";
import { useNavigate } from "react-router";
import { Modal } from "@/components/modal";
import { revokeSession, useEndSession } from "@/features/session";
import { getStoredSession } from "@/lib/session-store";

const SUPPORT_PATH = "/suporte";

/**
 * Shown to a user flagged as deleted. It has no way to dismiss it (no close button; Escape
 * and the backdrop do nothing): the only way out is the contact page, signed out.
 */
export function BlockedAccountModal() {
  const navigate = useNavigate();
  const endSession = useEndSession();

  const contactSupport = async (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    // The local sign-out goes on whatever the server answers.
    const token = getStoredSession()?.token;
    const revoked = token === undefined ? Promise.resolve() : revokeSession(token).catch(() => undefined);
    // Leave the member area first: clearing the session while it is still shown would
    // make its guard send the user to / instead.
    await navigate(SUPPORT_PATH, { replace: true, flushSync: true });
    endSession();
    await revoked;
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

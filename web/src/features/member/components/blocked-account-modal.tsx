import type { MouseEvent } from "react";
import { useNavigate } from "react-router";
import { Modal } from "@/components/modal";
import { api } from "@/lib/api-client";
import { clearStoredSession } from "@/lib/session-store";

const SUPPORT_PATH = "/suporte";

/** Revokes the session on the server; the local sign-out goes on whatever the answer. */
function revokeSession(): Promise<void> {
  return api.post<void>("/auth/logout").catch(() => undefined);
}

/**
 * Shown to a user flagged as deleted. It has no way to dismiss it (no close button; Escape
 * and the backdrop do nothing): the only way out is the contact page, signed out.
 */
export function BlockedAccountModal() {
  const navigate = useNavigate();

  const contactSupport = async (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    // The request reads the token when it starts, so it goes before the session is cleared.
    const revoked = revokeSession();
    // Leave the member area first: clearing the session while it is still shown would
    // make its guard send the user to / instead.
    await navigate(SUPPORT_PATH, { replace: true, flushSync: true });
    clearStoredSession();
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

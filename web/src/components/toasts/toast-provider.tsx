// The app's notifications (spec 000 section 9): toasts, a title and a text for
// TOAST_DURATION_MS, stacked at the top and each closable; and the snackbar, one line for
// SNACKBAR_DURATION_MS at the bottom, a new one replacing the last. Both regions are polite
// live regions, so a screen reader reads each message once without moving the focus.
import { useCallback, useEffect, useState, type ReactNode } from "react";
import { SNACKBAR_DURATION_MS, TOAST_DURATION_MS } from "@/config/constants";
import type { Toast } from "@/lib/api-client";
import { ToastContext, type Notifications } from "@/components/toasts/toast-context";
import "./toasts.css";

interface ShownToast extends Toast {
  id: number;
}

interface ShownSnackbar {
  id: number;
  text: string;
}

function ToastItem({ toast, onExpire }: { toast: ShownToast; onExpire: (id: number) => void }) {
  useEffect(() => {
    const timer = window.setTimeout(() => onExpire(toast.id), TOAST_DURATION_MS);
    return () => window.clearTimeout(timer);
  }, [toast.id, onExpire]);

  return (
    <div className="toast">
      <div className="toast__body">
        <p className="toast__title">{toast.title}</p>
        <p className="toast__text">{toast.text}</p>
      </div>
      <button type="button" className="toast__close" aria-label="Fechar" onClick={() => onExpire(toast.id)}>
        ×
      </button>
    </div>
  );
}

function SnackbarMessage({ snackbar, onExpire }: { snackbar: ShownSnackbar; onExpire: () => void }) {
  useEffect(() => {
    const timer = window.setTimeout(onExpire, SNACKBAR_DURATION_MS);
    return () => window.clearTimeout(timer);
  }, [snackbar.id, onExpire]);
  return <p className="snackbar">{snackbar.text}</p>;
}

/** Keys the shown messages; one counter for the app's lifetime. */
let nextId = 1;

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<ShownToast[]>([]);
  const [snackbar, setSnackbar] = useState<ShownSnackbar | null>(null);
  // Made once, so the components that show messages do not render again when one shows.
  const [notifications] = useState<Notifications>(() => ({
    showToast: (toast) => {
      const id = nextId++;
      setToasts((current) => [...current, { ...toast, id }]);
    },
    showSnackbar: (text) => setSnackbar({ id: nextId++, text }),
  }));
  const removeToast = useCallback((id: number) => {
    setToasts((current) => current.filter((toast) => toast.id !== id));
  }, []);
  const hideSnackbar = useCallback(() => setSnackbar(null), []);

  return (
    <ToastContext value={notifications}>
      {children}
      <div className="snackbar-region" role="status" aria-live="polite">
        {snackbar && <SnackbarMessage key={snackbar.id} snackbar={snackbar} onExpire={hideSnackbar} />}
      </div>
      <div className="toasts" role="region" aria-label="Notificações" aria-live="polite">
        {toasts.map((toast) => (
          <ToastItem key={toast.id} toast={toast} onExpire={removeToast} />
        ))}
      </div>
    </ToastContext>
  );
}

// The app's notifications (spec 000 section 9): toasts, a title and a text for
// TOAST_DURATION_MS, stacked at the top and each closable; and the snackbar, one line for
// SNACKBAR_DURATION_MS at the bottom, a new one replacing the last. Both regions are polite
// live regions, so a screen reader reads each message once without moving the focus.
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
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

/** Calls `onExpire` once `durationMs` has passed since the message with `id` appeared. */
function useExpiry(id: number, durationMs: number, onExpire: () => void): void {
  useEffect(() => {
    const timer = window.setTimeout(onExpire, durationMs);
    return () => window.clearTimeout(timer);
  }, [id, durationMs, onExpire]);
}

function ToastItem({ toast, onExpire }: { toast: ShownToast; onExpire: (id: number) => void }) {
  const expire = useCallback(() => onExpire(toast.id), [toast.id, onExpire]);
  useExpiry(toast.id, TOAST_DURATION_MS, expire);

  return (
    <div className="toast">
      <div className="toast__body">
        <p className="toast__title">{toast.title}</p>
        <p className="toast__text">{toast.text}</p>
      </div>
      <button type="button" className="toast__close" aria-label="Fechar" onClick={expire}>
        ×
      </button>
    </div>
  );
}

function SnackbarMessage({ snackbar, onExpire }: { snackbar: ShownSnackbar; onExpire: () => void }) {
  useExpiry(snackbar.id, SNACKBAR_DURATION_MS, onExpire);
  return <p className="snackbar">{snackbar.text}</p>;
}

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<ShownToast[]>([]);
  const [snackbar, setSnackbar] = useState<ShownSnackbar | null>(null);
  const nextId = useRef(1);

  const showToast = useCallback((toast: Toast) => {
    const id = nextId.current++;
    setToasts((current) => [...current, { ...toast, id }]);
  }, []);
  const removeToast = useCallback((id: number) => {
    setToasts((current) => current.filter((toast) => toast.id !== id));
  }, []);

  const showSnackbar = useCallback((text: string) => {
    setSnackbar({ id: nextId.current++, text });
  }, []);
  const hideSnackbar = useCallback(() => setSnackbar(null), []);

  const notifications = useMemo<Notifications>(() => ({ showToast, showSnackbar }), [showToast, showSnackbar]);

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

import { useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import { TOAST_DURATION_MS } from "@/config/constants";
import type { Toast } from "@/lib/api-client";
import { ToastContext } from "@/components/toasts/toast-context";
import "./toasts.css";

interface ShownToast extends Toast {
  id: number;
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

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<ShownToast[]>([]);
  const nextId = useRef(1);

  const showToast = useCallback((toast: Toast) => {
    const id = nextId.current++;
    setToasts((current) => [...current, { ...toast, id }]);
  }, []);

  const removeToast = useCallback((id: number) => {
    setToasts((current) => current.filter((toast) => toast.id !== id));
  }, []);

  return (
    <ToastContext value={showToast}>
      {children}
      <div className="toasts" role="region" aria-label="Notificações" aria-live="polite">
        {toasts.map((toast) => (
          <ToastItem key={toast.id} toast={toast} onExpire={removeToast} />
        ))}
      </div>
    </ToastContext>
  );
}

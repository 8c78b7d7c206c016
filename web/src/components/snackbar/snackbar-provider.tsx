import { useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import { SNACKBAR_DURATION_MS } from "@/config/constants";
import { SnackbarContext } from "@/components/snackbar/snackbar-context";
import "./snackbar.css";

interface ShownSnackbar {
  id: number;
  text: string;
}

function SnackbarMessage({ snackbar, onExpire }: { snackbar: ShownSnackbar; onExpire: () => void }) {
  useEffect(() => {
    const timer = window.setTimeout(onExpire, SNACKBAR_DURATION_MS);
    return () => window.clearTimeout(timer);
  }, [snackbar.id, onExpire]);

  return <p className="snackbar">{snackbar.text}</p>;
}

export function SnackbarProvider({ children }: { children: ReactNode }) {
  const [snackbar, setSnackbar] = useState<ShownSnackbar | null>(null);
  const nextId = useRef(1);

  const showSnackbar = useCallback((text: string) => {
    setSnackbar({ id: nextId.current++, text });
  }, []);

  const hideSnackbar = useCallback(() => setSnackbar(null), []);

  return (
    <SnackbarContext value={showSnackbar}>
      {children}
      <div className="snackbar-region" role="status" aria-live="polite">
        {snackbar && <SnackbarMessage key={snackbar.id} snackbar={snackbar} onExpire={hideSnackbar} />}
      </div>
    </SnackbarContext>
  );
}

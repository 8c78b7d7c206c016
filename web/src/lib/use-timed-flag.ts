import { useCallback, useEffect, useRef, useState } from "react";

/**
 * A flag that turns itself off `durationMs` after the last `show()`: an inline notice or a
 * label shown for a moment (the shop's pending-purchases notice, a copy button's 'Copiado').
 * Messages that float over the page go through the toasts instead.
 */
export function useTimedFlag(durationMs: number): { shown: boolean; show: () => void } {
  const [shown, setShown] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const show = useCallback(() => {
    window.clearTimeout(timer.current);
    setShown(true);
    timer.current = window.setTimeout(() => setShown(false), durationMs);
  }, [durationMs]);
  return { shown, show };
}

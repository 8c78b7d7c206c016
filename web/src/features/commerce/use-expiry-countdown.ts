// The time left until an instant the server gave (a reservation's `expires_at`, a PIX
// charge's `expiration_date`). Counted from that instant, not from a duration started on
// this device, so a slow answer, a re-render, a remount or a throttled background tab never
// stretches it; a new instant (the hold extended while a PIX is pending) starts over.
import { useEffect, useRef, useState } from "react";

const SECOND_MS = 1000;

export interface ExpiryCountdown {
  /** Whole seconds left, rounded up (0 once the instant has passed); null without an instant. */
  secondsLeft: number | null;
  expired: boolean;
}

function deadlineOf(expiresAt: string | null | undefined): number | null {
  if (!expiresAt) return null;
  const deadline = Date.parse(expiresAt);
  return Number.isNaN(deadline) ? null : deadline;
}

/**
 * Ticks once a second, on the second boundaries of the deadline, and calls `onExpire` once
 * when the time is up (at once if it already was). The latest `onExpire` is the one called,
 * so an inline arrow function does not restart anything.
 */
export function useExpiryCountdown(
  expiresAt: string | null | undefined,
  onExpire?: () => void,
): ExpiryCountdown {
  const deadline = deadlineOf(expiresAt);
  const [now, setNow] = useState(() => Date.now());
  const onExpireRef = useRef(onExpire);
  const firedFor = useRef<number | null>(null);

  useEffect(() => {
    onExpireRef.current = onExpire;
  });

  useEffect(() => {
    if (deadline === null) return;
    let timer: number | undefined;
    const tick = () => {
      const current = Date.now();
      setNow(current);
      const left = deadline - current;
      if (left <= 0) {
        if (firedFor.current !== deadline) {
          firedFor.current = deadline;
          onExpireRef.current?.();
        }
        return;
      }
      // Wake up when the displayed second changes: the remainder to the next boundary.
      timer = window.setTimeout(tick, left % SECOND_MS || SECOND_MS);
    };
    tick();
    return () => window.clearTimeout(timer);
  }, [deadline]);

  if (deadline === null) return { secondsLeft: null, expired: false };
  const secondsLeft = Math.max(0, Math.ceil((deadline - now) / SECOND_MS));
  return { secondsLeft, expired: secondsLeft === 0 };
}

/** Seconds as mm:ss (spec 002 section 9: durations mm:ss); minutes past 59 keep counting. */
export function formatMinutesSeconds(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  const minutes = Math.floor(seconds / 60);
  return `${String(minutes).padStart(2, "0")}:${String(seconds % 60).padStart(2, "0")}`;
}

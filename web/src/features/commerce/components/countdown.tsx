// The reservation's and the PIX charge's countdown (spec 002 sections 2 and 4): mm:ss to the
// instant the server gave, ticking every second. The clock itself is not a live region (a
// reader would hear it every second); a polite status announces the last minute, at 60, 30
// and 10 seconds left.
import { useId } from "react";
import { formatMinutesSeconds, useExpiryCountdown } from "@/features/commerce/use-expiry-countdown";
import "./commerce.css";

export const COUNTDOWN_DEFAULT_LABEL = "Tempo restante";

/** What the live region says as the last minute runs out, from the latest threshold passed. */
export function lastMinuteAnnouncement(secondsLeft: number | null): string {
  if (secondsLeft === null || secondsLeft <= 0 || secondsLeft > 60) return "";
  if (secondsLeft <= 10) return "Restam 10 segundos.";
  if (secondsLeft <= 30) return "Restam 30 segundos.";
  return "Resta 1 minuto.";
}

interface CountdownProps {
  /** The server's instant (RFC 3339) at which the time is up. */
  expiresAt: string;
  /** Called once when the time is up. */
  onExpire?: () => void;
  label?: string;
}

export function Countdown({ expiresAt, onExpire, label = COUNTDOWN_DEFAULT_LABEL }: CountdownProps) {
  const { secondsLeft, expired } = useExpiryCountdown(expiresAt, onExpire);
  const labelId = useId();
  const lastMinute = secondsLeft !== null && secondsLeft <= 60;

  return (
    <div className={`countdown${lastMinute ? " countdown--ending" : ""}${expired ? " countdown--expired" : ""}`}>
      <span id={labelId} className="countdown__label">
        {label}
      </span>{" "}
      <time
        className="countdown__time"
        role="timer"
        aria-labelledby={labelId}
        dateTime={`PT${secondsLeft ?? 0}S`}
      >
        {formatMinutesSeconds(secondsLeft ?? 0)}
      </time>
      <span className="commerce-visually-hidden" role="status">
        {lastMinuteAnnouncement(secondsLeft)}
      </span>
    </div>
  );
}

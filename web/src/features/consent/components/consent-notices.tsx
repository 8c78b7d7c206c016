import { lazy, Suspense, useState } from "react";
import {
  hasAcceptedCookies,
  hasConfirmedAge,
  rememberAgeConfirmation,
  rememberCookieConsent,
} from "@/features/consent/consent-storage";
import { CookieNotice } from "@/features/consent/components/cookie-notice";
import { useSession } from "@/features/session";
import { useStation } from "@/features/stations";
import "./consent-notices.css";

// Few stations ask for the age gate: its code (and the modal's) loads only where it is shown,
// with the page covered meanwhile.
const AgeGate = lazy(async () => ({ default: (await import("@/features/consent/components/age-gate")).AgeGate }));

/** The age gate first (visitors of stations that ask), then the cookie notice, each until answered. */
export function ConsentNotices() {
  const station = useStation();
  const session = useSession();
  const [cookiesAccepted, setCookiesAccepted] = useState(hasAcceptedCookies);
  const [ageConfirmed, setAgeConfirmed] = useState(() => hasConfirmedAge(station.id));

  if (station.age_gate && session === null && !ageConfirmed) {
    return (
      <Suspense fallback={<div className="age-gate-pending" aria-busy="true" />}>
        <AgeGate
          canLeave={station.has_majority_security}
          onConfirm={() => {
            rememberAgeConfirmation(station.id);
            setAgeConfirmed(true);
          }}
        />
      </Suspense>
    );
  }

  if (!cookiesAccepted) {
    return (
      <CookieNotice
        onAccept={() => {
          rememberCookieConsent();
          setCookiesAccepted(true);
        }}
      />
    );
  }

  return null;
}

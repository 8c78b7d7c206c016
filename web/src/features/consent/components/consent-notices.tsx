import { useState } from "react";
import {
  hasAcceptedCookies,
  hasConfirmedAge,
  rememberAgeConfirmation,
  rememberCookieConsent,
} from "@/features/consent/consent-storage";
import { AgeGate } from "@/features/consent/components/age-gate";
import { CookieNotice } from "@/features/consent/components/cookie-notice";
import { useSession } from "@/features/session";
import { useStation } from "@/features/stations";

/** The age gate first (visitors of stations that ask), then the cookie notice, each until answered. */
export function ConsentNotices() {
  const station = useStation();
  const session = useSession();
  const [cookiesAccepted, setCookiesAccepted] = useState(hasAcceptedCookies);
  const [ageConfirmed, setAgeConfirmed] = useState(() => hasConfirmedAge(station.id));

  if (station.age_gate && session === null && !ageConfirmed) {
    return (
      <AgeGate
        canLeave={station.has_majority_security}
        onConfirm={() => {
          rememberAgeConfirmation(station.id);
          setAgeConfirmed(true);
        }}
      />
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

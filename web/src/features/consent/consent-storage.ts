// Consents the visitor gave, kept in local storage so they are never asked again
// (spec 000 section 4). Each holds the moment it was given.
import { readStoredItem, writeStoredItem } from "@/lib/storage";

export const COOKIE_CONSENT_KEY = "filia.cookie-consent";
const AGE_CONFIRMATION_KEY_PREFIX = "filia.age-confirmed.";

export function ageConfirmationKey(stationId: number): string {
  return `${AGE_CONFIRMATION_KEY_PREFIX}${stationId}`;
}

export function hasAcceptedCookies(): boolean {
  return readStoredItem(COOKIE_CONSENT_KEY) !== null;
}

export function rememberCookieConsent(): void {
  writeStoredItem(COOKIE_CONSENT_KEY, new Date().toISOString());
}

export function hasConfirmedAge(stationId: number): boolean {
  return readStoredItem(ageConfirmationKey(stationId)) !== null;
}

export function rememberAgeConfirmation(stationId: number): void {
  writeStoredItem(ageConfirmationKey(stationId), new Date().toISOString());
}

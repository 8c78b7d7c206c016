// Texts the activity cards and lists derive from an activity (spec 001 sections 2, 4 and 9);
// what the detail says about the window and the limit is in availability-text.ts.
import type { ActivityCard } from "@/types/api";
import { formatStationAmount, type CurrencySettings } from "@/lib/currency";

/** Card names are cut at 62 characters in the home's rows and at 70 in lists. */
export const HOME_NAME_LIMIT = 62;
export const LIST_NAME_LIMIT = 70;

export function truncateName(name: string, limit: number): string {
  return name.length > limit ? `${name.slice(0, limit).trimEnd()}...` : name;
}

/** The cashback a card shows: points plus additional_cashback, in the station's currency. */
export function cashbackText(activity: Pick<ActivityCard, "cashback">, currency: CurrencySettings): string {
  // The contract's amounts are whole points; formatStationAmount takes hundredths.
  return formatStationAmount(activity.cashback * 100, currency);
}

/** What a list with no activity says (spec 001 section 2). */
export const NO_ACTIVITIES_TEXT = "Não há atividades";

/** The prerequisites the member has not done yet; empty when the card is open to them. */
export function missingPrerequisites(activity: Pick<ActivityCard, "prerequisites">) {
  const { prerequisites } = activity;
  if (prerequisites.user_done_prerequisites) return [];
  return prerequisites.action_prerequisites.filter((required) => !required.done);
}

/** Type 13 sends the member to its external link. */
export const EXTERNAL_LINK_TYPE = 13;
/** Type 16 is raw content: description only, no rules tab, the view is the participation. */
export const RAW_CONTENT_TYPE = 16;
/** Type 15 is an agreement: its terms' checkbox and button record the participation. */
export const AGREEMENT_TYPE = 15;
/** Type 20 is a donation from the wallet, with the amount and 'Doar'. */
export const DONATION_TYPE = 20;
/** Type 18 is a video playlist: no image on top. */
export const VIDEO_PLAYLIST_TYPE = 18;

// The desks the member pages name, where each lives in the member area, the station flag that opens it and its news tag
// (spec 002 section 2 "Member routes", section 9 "news tags").
import type { Station } from "@/types/api";

/** The desks a page names in its address (`GET /api/services/{desk}`). */
export type Desk = "legal" | "accounting" | "health" | "political";

/** The desks with a news page (`GET /api/{desk}/news`). */
export type NewsDesk = "legal" | "accounting" | "political";

/** The desks members book appointments with and look cases up in. */
export type CaseDesk = "legal" | "accounting";

type DeskFlag = "legal_access" | "accounting_access" | "health_access" | "political_access";

export const DESK_FLAGS: Record<Desk, DeskFlag> = {
  legal: "legal_access",
  accounting: "accounting_access",
  health: "health_access",
  political: "political_access",
};

/** The desk's landing in the member area; its pages are below it. */
export const DESK_PATHS: Record<Desk, string> = {
  legal: "/homepage/consultoria-juridica",
  accounting: "/homepage/consultoria-contabil",
  health: "/homepage/saude",
  political: "/homepage/politico-sindical",
};

export const NEWS_TAGS: Record<NewsDesk, number> = {
  legal: 13752,
  accounting: 13754,
  political: 13755,
};

export function offersDesk(station: Station, desk: Desk): boolean {
  return station[DESK_FLAGS[desk]];
}

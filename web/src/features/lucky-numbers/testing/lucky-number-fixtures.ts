// Campaigns as GET /giveaway-numbers/{userId} answers them.
import type { GiveawayCampaign, LuckyNumber } from "@/types/api";

/** The signed-in member's (id 1) numbers. */
export const LUCKY_NUMBERS_CALL = "GET /api/giveaway-numbers/1";

export function buildLuckyNumber(overrides: Partial<LuckyNumber> = {}): LuckyNumber {
  return {
    number: "04217",
    participation_id: 31,
    action_id: 12,
    action_name: "Conheça a história do clube",
    participated_at: "2026-12-05T15:00:00Z",
    createdAt: "2026-12-05T15:00:05Z",
    ...overrides,
  };
}

export function buildCampaign(overrides: Partial<GiveawayCampaign> = {}): GiveawayCampaign {
  return {
    id: 1,
    name: "Sorteio de fim de ano",
    starts_at: "2026-11-01T03:00:00Z",
    ends_at: "2027-02-01T03:00:00Z",
    publish_at: "2027-02-01T19:00:00Z",
    publication_text: "Os números da sorte serão publicados até 01/02/2027 às 16h.",
    numbers: [buildLuckyNumber()],
    ...overrides,
  };
}

// Trophies as GET /trophies/ answers them.
import type { MemberTrophy } from "@/types/api";

/** The trophies of the demo station (id 7) and signed-in member (id 1). */
export const TROPHIES_CALL = "GET /api/trophies/?where[station_id]=7&where[user_id]=1";

export function buildTrophy(overrides: Partial<MemberTrophy> = {}): MemberTrophy {
  return {
    id: 1,
    name: "Primeiro passo",
    description: "Concluiu a primeira atividade.",
    trophy_image: "/uploads/trophies/primeiro-passo.png",
    createdAt: "2026-11-21T12:00:00Z",
    ...overrides,
  };
}

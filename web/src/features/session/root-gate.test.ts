import { describe, expect, it } from "vitest";
import { decideRootGate, mayEnterMemberArea } from "@/features/session/root-gate";
import { buildUser } from "@/testing/fixtures";

describe("decideRootGate", () => {
  it.each([
    ["a visitor", null, { kind: "landing" }],
    ["a user without establishment", buildUser({ establishment: null }), { kind: "no-establishment" }],
    [
      "an inactive user without establishment",
      buildUser({ establishment: null, active: 0 }),
      { kind: "no-establishment" },
    ],
    ["an inactive user", buildUser({ active: 0 }), { kind: "redirect", to: "/confimation" }],
    ["a participant", buildUser({ type_id: 2 }), { kind: "redirect", to: "/homepage" }],
    ["a company admin", buildUser({ type_id: 1 }), { kind: "redirect", to: "/homepage" }],
    ["a deleted participant", buildUser({ deletedAt: "2026-11-01T00:00:00Z" }), { kind: "redirect", to: "/homepage" }],
    ["an unknown account type", buildUser({ type_id: 9 }), { kind: "redirect", to: "/not-autorized" }],
  ])("sends %s to the right place", (_case, user, decision) => {
    expect(decideRootGate(user)).toEqual(decision);
  });

  it("lets only active members with an establishment into the member area", () => {
    expect(mayEnterMemberArea(buildUser())).toBe(true);
    expect(mayEnterMemberArea(null)).toBe(false);
    expect(mayEnterMemberArea(buildUser({ active: 0 }))).toBe(false);
    expect(mayEnterMemberArea(buildUser({ establishment: null }))).toBe(false);
  });
});

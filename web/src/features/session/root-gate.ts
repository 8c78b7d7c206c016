// What the root path shows (spec 000 section 2, spec 002 "Root gate").
import { USER_TYPE_COMPANY_ADMIN, USER_TYPE_PARTICIPANT, type User } from "@/types/api";

export type RootGateDecision =
  | { kind: "landing" }
  | { kind: "no-establishment" }
  | { kind: "redirect"; to: "/confimation" | "/homepage" | "/not-autorized" };

const MEMBER_TYPES: readonly number[] = [USER_TYPE_COMPANY_ADMIN, USER_TYPE_PARTICIPANT];

export function decideRootGate(user: User | null): RootGateDecision {
  if (user === null) return { kind: "landing" };
  if (user.establishment == null) return { kind: "no-establishment" };
  if (user.active === 0) return { kind: "redirect", to: "/confimation" };
  if (MEMBER_TYPES.includes(user.type_id)) return { kind: "redirect", to: "/homepage" };
  // The spec names no other account type; one we do not know gets no member area.
  return { kind: "redirect", to: "/not-autorized" };
}

/** Whether the user may see the member area under /homepage. */
export function mayEnterMemberArea(user: User | null): boolean {
  const decision = decideRootGate(user);
  return decision.kind === "redirect" && decision.to === "/homepage";
}

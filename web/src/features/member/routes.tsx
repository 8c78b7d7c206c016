// The member area under /homepage, behind the member guard. Its route table loads with its
// code when a member first opens it (descendant routes of "homepage/*"), so the screens of
// the member area never weigh on the first page load.
import type { RouteObject } from "react-router";
import { lazyScreen } from "@/components/lazy-screen";
import { RequireMember } from "@/features/session";

const memberArea = lazyScreen(async () => (await import("@/features/member/components/member-area")).MemberArea);

export const memberAreaRoutes: RouteObject[] = [{ path: "homepage/*", element: <RequireMember>{memberArea}</RequireMember> }];

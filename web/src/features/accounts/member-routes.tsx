// The member's profile and virtual card, children of /homepage loaded when first opened.
// Apart from routes.tsx, whose table every first page load carries: only the member area's
// own chunk loads this one.
import type { RouteObject } from "react-router";
import { lazyScreen } from "@/components/lazy-screen";

export const accountsMemberRoutes: RouteObject[] = [
  {
    path: "perfil",
    element: lazyScreen(async () => (await import("@/features/accounts/components/member-account-pages")).ProfilePage),
  },
  {
    path: "carteirinha",
    element: lazyScreen(async () => (await import("@/features/accounts/components/member-account-pages")).MemberCardPage),
  },
];

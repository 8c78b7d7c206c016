// The member area under /homepage (its guard is the app's): the frame, the welcome page and
// the wallet's pages, loaded when a member first opens it.
import type { RouteObject } from "react-router";
import { lazyScreen } from "@/components/lazy-screen";
import { walletMemberRoutes } from "@/features/wallet/routes";

export const memberAreaRoutes: RouteObject[] = [
  {
    element: lazyScreen(async () => (await import("@/features/member/components/member-layout")).MemberLayout),
    children: [
      {
        index: true,
        element: lazyScreen(async () => (await import("@/features/member/components/member-welcome")).MemberWelcome),
      },
      ...walletMemberRoutes,
    ],
  },
];

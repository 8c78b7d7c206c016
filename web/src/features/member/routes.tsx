// The member area under /homepage (its guard is the app's): the frame, the welcome page and
// the wallet's pages, loaded when a member first opens it.
import type { RouteObject } from "react-router";
import { walletMemberRoutes } from "@/features/wallet";

export const memberAreaRoutes: RouteObject[] = [
  {
    lazy: async () => ({ Component: (await import("@/features/member/components/member-layout")).MemberLayout }),
    children: [
      {
        index: true,
        lazy: async () => ({ Component: (await import("@/features/member/components/member-welcome")).MemberWelcome }),
      },
      ...walletMemberRoutes,
    ],
  },
];

import { useRoutes, type RouteObject } from "react-router";
import { lazyScreen } from "@/components/lazy-screen";
import { NotFoundPage } from "@/components/not-found-page";
import { MemberLayout } from "@/features/member/components/member-layout";
import { walletMemberRoutes } from "@/features/wallet/routes";

/** The member area's screens, relative to /homepage, each loaded when first opened. */
const routes: RouteObject[] = [
  {
    element: <MemberLayout />,
    children: [
      {
        index: true,
        element: lazyScreen(async () => (await import("@/features/member/components/member-welcome")).MemberWelcome),
      },
      ...walletMemberRoutes,
    ],
  },
  { path: "*", element: <NotFoundPage /> },
];

export function MemberArea() {
  return useRoutes(routes);
}

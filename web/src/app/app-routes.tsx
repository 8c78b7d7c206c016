// Every route of the web app, with the paths exactly as the spec names them
// ("/not-autorized" and "/confimation" are spelled so on purpose).
import type { RouteObject } from "react-router";
import { AccountNotActiveRoute } from "@/app/routes/account-not-active";
import { LogoutRoute } from "@/app/routes/logout";
import { NotAuthorizedRoute } from "@/app/routes/not-authorized";
import { RootGateRoute } from "@/app/routes/root-gate";
import { RootLayout } from "@/app/routes/root-layout";
import { lazyScreen } from "@/components/lazy-screen";
import { accountRoutes } from "@/features/accounts/routes";
import { memberAreaRoutes } from "@/features/member/routes";
import { opsRoutes } from "@/features/staff/routes";

export const appRoutes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { index: true, element: <RootGateRoute /> },
      ...memberAreaRoutes,
      ...accountRoutes,
      ...opsRoutes,
      { path: "logout", element: <LogoutRoute /> },
      { path: "not-autorized", element: <NotAuthorizedRoute /> },
      { path: "confimation", element: <AccountNotActiveRoute /> },
      // Every other public page, and the not-found page, in a chunk of their own.
      { path: "*", element: lazyScreen(async () => (await import("@/app/routes/public-area")).PublicArea) },
    ],
  },
];

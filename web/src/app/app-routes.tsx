// Every route of the web app, with the paths exactly as the spec names them
// ("/not-autorized" and "/confimation" are spelled so on purpose).
import type { RouteObject } from "react-router";
import { AccountNotActiveRoute } from "@/app/routes/account-not-active";
import { LogoutRoute } from "@/app/routes/logout";
import { NotAuthorizedRoute } from "@/app/routes/not-authorized";
import { RootGateRoute } from "@/app/routes/root-gate";
import { RootLayout } from "@/app/routes/root-layout";
import { NotFoundPage } from "@/components/not-found-page";
import { activitiesPublicRoutes } from "@/features/activities/routes";
import { accountRoutes } from "@/features/accounts/routes";
import { memberAreaRoutes } from "@/features/member/routes";
import { publicPageRoutes } from "@/features/public-pages/routes";
import { opsRoutes } from "@/features/staff/routes";
import { subscriptionsPublicRoutes } from "@/features/subscriptions/routes";
import { supportPublicRoutes } from "@/features/support/routes";

export const appRoutes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { index: true, element: <RootGateRoute /> },
      ...memberAreaRoutes,
      ...accountRoutes,
      ...publicPageRoutes,
      ...activitiesPublicRoutes,
      ...subscriptionsPublicRoutes,
      ...supportPublicRoutes,
      ...opsRoutes,
      { path: "logout", element: <LogoutRoute /> },
      { path: "not-autorized", element: <NotAuthorizedRoute /> },
      { path: "confimation", element: <AccountNotActiveRoute /> },
      { path: "*", element: <NotFoundPage /> },
    ],
  },
];

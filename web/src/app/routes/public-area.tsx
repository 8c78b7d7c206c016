// The visitors' pages other than the account screens (legal texts, validators, deep links,
// public activities and plans...) and the not-found page, behind the app's catch-all route:
// their route table loads with this chunk, so adding a public page never weighs on the
// first load of the landing or the login page.
import { useRoutes, type RouteObject } from "react-router";
import { NotFoundPage } from "@/components/not-found-page";
import { activitiesPublicRoutes } from "@/features/activities/routes";
import { landingPublicRoutes } from "@/features/landing/routes";
import { publicPageRoutes } from "@/features/public-pages/routes";
import { subscriptionsPublicRoutes } from "@/features/subscriptions/routes";
import { supportPublicRoutes } from "@/features/support/routes";

const routes: RouteObject[] = [
  ...publicPageRoutes,
  ...activitiesPublicRoutes,
  ...subscriptionsPublicRoutes,
  ...supportPublicRoutes,
  ...landingPublicRoutes,
  { path: "*", element: <NotFoundPage /> },
];

export function PublicArea() {
  return useRoutes(routes);
}

// The activities' screens, each loaded when first opened: the member's, children of
// /homepage (the home is the member area's index), and the visitors' public page.
import type { RouteObject } from "react-router";
import { lazyScreen } from "@/components/lazy-screen";

const activityPage = async () => (await import("@/features/activities/components/activity-page")).ActivityPage;

export const activitiesMemberRoutes: RouteObject[] = [
  {
    index: true,
    element: lazyScreen(async () => (await import("@/features/activities/components/home-page")).HomePage),
  },
  {
    path: "categoria/:id",
    element: lazyScreen(async () => (await import("@/features/activities/components/category-page")).CategoryPage),
  },
  {
    path: "atividades",
    element: lazyScreen(async () => (await import("@/features/activities/components/activities-page")).ActivitiesPage),
  },
  { path: "atividades/:id", element: lazyScreen(activityPage) },
  { path: "atividade/:id", element: lazyScreen(activityPage) },
  {
    path: "search/:term",
    element: lazyScreen(async () => (await import("@/features/activities/components/search-page")).SearchPage),
  },
];

export const activitiesPublicRoutes: RouteObject[] = [
  {
    path: "atividade/:id",
    element: lazyScreen(
      async () => (await import("@/features/activities/components/public-activity-page")).PublicActivityPage,
    ),
  },
];

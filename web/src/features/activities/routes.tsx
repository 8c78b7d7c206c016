// The visitors' public activity page, loaded when first opened. The member's screens are
// in member-routes.tsx (exported by index.ts), carried by the member area's chunk only.
import type { RouteObject } from "react-router";
import { lazyScreen } from "@/components/lazy-screen";

export const activitiesPublicRoutes: RouteObject[] = [
  {
    path: "atividade/:id",
    element: lazyScreen(
      async () => (await import("@/features/activities/components/public-activity-page")).PublicActivityPage,
    ),
  },
];

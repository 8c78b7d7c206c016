// The public plan page (/planos/{id}), loaded when first opened (through a small chunk of
// its own: public-plan-route.tsx); the member's screens are in member-routes.tsx.
import type { RouteObject } from "react-router";
import { lazyScreen } from "@/components/lazy-screen";

export const subscriptionsPublicRoutes: RouteObject[] = [
  {
    path: "planos/:id",
    element: lazyScreen(async () => (await import("@/features/subscriptions/components/public-plan-route")).PublicPlanRoute),
  },
];

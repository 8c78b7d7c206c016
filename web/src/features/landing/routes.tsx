// The landing's public pages besides / itself: the about pages, loaded when first opened.
import type { RouteObject } from "react-router";
import { lazyScreen } from "@/components/lazy-screen";

export const landingPublicRoutes: RouteObject[] = [
  {
    path: "sobre/:id",
    element: lazyScreen(async () => (await import("@/features/landing/components/about-page")).AboutPage),
  },
];

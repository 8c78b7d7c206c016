// The member's trophies, a child of /homepage loaded when first opened.
import type { RouteObject } from "react-router";
import { lazyScreen } from "@/components/lazy-screen";

export const trophiesMemberRoutes: RouteObject[] = [
  {
    path: "trofeus",
    element: lazyScreen(async () => (await import("@/features/trophies/components/trophies-page")).TrophiesPage),
  },
];

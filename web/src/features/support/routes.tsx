// The public contact pages (/suporte, /suporte-enterprise), loaded when first opened; the
// member's /homepage/support is in member-routes.tsx.
import type { RouteObject } from "react-router";
import { lazyScreen } from "@/components/lazy-screen";

export const supportPublicRoutes: RouteObject[] = [
  {
    path: "suporte",
    element: lazyScreen(async () => (await import("@/features/support/components/support-page")).SupportPage),
  },
  {
    path: "suporte-enterprise",
    element: lazyScreen(async () => (await import("@/features/support/components/support-page")).EnterpriseSupportPage),
  },
];

// The public contact pages (/suporte, /suporte-enterprise), one screen loaded when first
// opened (it reads which from the path: one entry keeps the first load's budget); the
// member's /homepage/support is in member-routes.tsx.
import type { RouteObject } from "react-router";
import { lazyScreen } from "@/components/lazy-screen";

const supportScreen = lazyScreen(async () => (await import("@/features/support/components/support-page")).SupportPage);

export const supportPublicRoutes: RouteObject[] = [
  { path: "suporte", element: supportScreen },
  { path: "suporte-enterprise", element: supportScreen },
];

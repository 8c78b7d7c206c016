// 'Fale conosco' in the member area (/homepage/support), loaded when first opened. Apart
// from routes.tsx so that only the member area's chunk carries this table.
import type { RouteObject } from "react-router";
import { lazyScreen } from "@/components/lazy-screen";

export const supportMemberRoutes: RouteObject[] = [
  {
    path: "support",
    element: lazyScreen(async () => (await import("@/features/support/components/support-page")).MemberSupportPage),
  },
];

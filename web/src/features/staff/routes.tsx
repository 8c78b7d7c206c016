// The support console under /ops (staff only; see OpsLayout). Members never need it, so its
// route table loads with its code when a staff member opens it (descendant routes of
// "ops/*").
import type { RouteObject } from "react-router";
import { lazyScreen } from "@/components/lazy-screen";

export const opsRoutes: RouteObject[] = [
  { path: "ops/*", element: lazyScreen(async () => (await import("@/features/staff/components/ops-area")).OpsArea) },
];

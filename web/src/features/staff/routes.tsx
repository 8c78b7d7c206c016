// The support console under /ops (staff only; see OpsLayout). Members never need it, so its
// code is loaded only when a staff member opens it.
import type { RouteObject } from "react-router";
import { lazyScreen } from "@/components/lazy-screen";

export const opsRoutes: RouteObject[] = [
  {
    path: "ops",
    element: lazyScreen(async () => (await import("@/features/staff/components/ops-layout")).OpsLayout),
    children: [
      {
        index: true,
        element: lazyScreen(async () => (await import("@/features/staff/components/overview-page")).OverviewPage),
      },
      {
        path: "tarefas",
        element: lazyScreen(async () => (await import("@/features/staff/components/jobs-page")).JobsPage),
      },
      {
        path: "tarefas/:jobId",
        element: lazyScreen(async () => (await import("@/features/staff/components/job-detail-page")).JobDetailPage),
      },
      {
        path: "auditoria",
        element: lazyScreen(async () => (await import("@/features/staff/components/audit-page")).AuditPage),
      },
    ],
  },
];

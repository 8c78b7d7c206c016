// The support console under /ops (staff only; see OpsLayout). Members never need it, so its
// code is loaded only when a staff member opens it.
import type { RouteObject } from "react-router";

export const opsRoutes: RouteObject[] = [
  {
    path: "ops",
    lazy: async () => ({ Component: (await import("@/features/staff/components/ops-layout")).OpsLayout }),
    children: [
      {
        index: true,
        lazy: async () => ({ Component: (await import("@/features/staff/components/overview-page")).OverviewPage }),
      },
      {
        path: "tarefas",
        lazy: async () => ({ Component: (await import("@/features/staff/components/jobs-page")).JobsPage }),
      },
      {
        path: "tarefas/:jobId",
        lazy: async () => ({ Component: (await import("@/features/staff/components/job-detail-page")).JobDetailPage }),
      },
      {
        path: "auditoria",
        lazy: async () => ({ Component: (await import("@/features/staff/components/audit-page")).AuditPage }),
      },
    ],
  },
];

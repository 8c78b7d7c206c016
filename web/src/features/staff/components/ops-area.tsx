import { useRoutes, type RouteObject } from "react-router";
import { lazyScreen } from "@/components/lazy-screen";
import { NotFoundPage } from "@/components/not-found-page";
import { OpsLayout } from "@/features/staff/components/ops-layout";

/** The console's screens, relative to /ops, each loaded when first opened. */
const routes: RouteObject[] = [
  {
    element: <OpsLayout />,
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
        path: "denuncias",
        element: lazyScreen(async () => (await import("@/features/staff/components/reports-page")).ReportsPage),
      },
      {
        path: "assinaturas",
        element: lazyScreen(async () => (await import("@/features/staff/components/subscriptions-page")).SubscriptionsPage),
      },
      {
        path: "recargas",
        element: lazyScreen(async () => (await import("@/features/staff/components/topups-page")).TopUpsPage),
      },
      {
        path: "suporte",
        element: lazyScreen(async () => (await import("@/features/staff/components/support-page")).SupportPage),
      },
      {
        path: "auditoria",
        element: lazyScreen(async () => (await import("@/features/staff/components/audit-page")).AuditPage),
      },
      {
        path: "desk",
        element: lazyScreen(async () => (await import("@/features/staff/components/desk-list-page")).DesksPage),
      },
      {
        path: "desk/:stationId/:desk",
        element: lazyScreen(async () => (await import("@/features/staff/components/desk-page")).DeskPage),
      },
    ],
  },
  { path: "*", element: <NotFoundPage /> },
];

export function OpsArea() {
  return useRoutes(routes);
}

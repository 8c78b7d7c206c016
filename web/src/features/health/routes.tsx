// The health desk's pages (spec 002 "Health"), children of /homepage loaded when first opened.
import type { RouteObject } from "react-router";
import { lazyScreen } from "@/components/lazy-screen";

const landing = () => import("@/features/health/components/health-page");
const form = () => import("@/features/health/components/appointment-form-page");
const info = () => import("@/features/health/components/info-page");

const SERVICES = [
  ["agendamento-odontologia", "dental"],
  ["agendamento-psicologia", "psychologist"],
  ["agendamento-nutricionista", "nutritionist"],
] as const;

export const healthMemberRoutes: RouteObject[] = [
  { path: "saude", element: lazyScreen(async () => (await landing()).HealthPage) },
  ...SERVICES.flatMap(([slug, serviceId]): RouteObject[] => [
    {
      path: `saude/${slug}`,
      element: lazyScreen(async () => {
        const { AppointmentFormPage } = await form();
        return function ServiceForm() {
          return <AppointmentFormPage serviceId={serviceId} />;
        };
      }),
    },
    {
      path: `saude/${slug}-info`,
      element: lazyScreen(async () => {
        const { HealthInfoPage } = await info();
        return function ServiceInfo() {
          return <HealthInfoPage serviceId={serviceId} />;
        };
      }),
    },
  ]),
];

// The health desk's pages (spec 002 "Health"), children of /homepage loaded when first opened.
// Each shows only where the station offers health (`health_access`); elsewhere the address
// is not found, as the API's 404.
import type { ReactElement } from "react";
import type { RouteObject } from "react-router";
import { lazyScreen } from "@/components/lazy-screen";
import { DeskGate } from "@/features/services";

const landing = () => import("@/features/health/components/health-page");
const form = () => import("@/features/health/components/appointment-form-page");
const info = () => import("@/features/health/components/info-page");

const SERVICES = [
  ["agendamento-odontologia", "dental"],
  ["agendamento-psicologia", "psychologist"],
  ["agendamento-nutricionista", "nutritionist"],
] as const;

function healthRoute(path: string, screen: ReactElement): RouteObject {
  return { path, element: <DeskGate desk="health">{screen}</DeskGate> };
}

export const healthMemberRoutes: RouteObject[] = [
  healthRoute("saude", lazyScreen(async () => (await landing()).HealthPage)),
  ...SERVICES.flatMap(([slug, serviceId]): RouteObject[] => [
    healthRoute(
      `saude/${slug}`,
      lazyScreen(async () => {
        const { AppointmentFormPage } = await form();
        return function ServiceForm() {
          return <AppointmentFormPage serviceId={serviceId} />;
        };
      }),
    ),
    healthRoute(
      `saude/${slug}-info`,
      lazyScreen(async () => {
        const { HealthInfoPage } = await info();
        return function ServiceInfo() {
          return <HealthInfoPage serviceId={serviceId} />;
        };
      }),
    ),
  ]),
];

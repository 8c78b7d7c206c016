// The fuel campaign, a child of /homepage loaded when first opened.
import type { RouteObject } from "react-router";
import { lazyScreen } from "@/components/lazy-screen";

export const FUEL_PATH = "/homepage/legisclub-gasolina";

export const fuelMemberRoutes: RouteObject[] = [
  {
    path: "legisclub-gasolina",
    element: lazyScreen(async () => (await import("@/features/fuel/components/fuel-page")).FuelPage),
  },
];

// The political-union pages (spec 002 "Political"), children of /homepage loaded when first
// opened. contato, informacoes, noticias, noticias/detalhe, cafe-com-politica and transforma
// join with the desks' shared components. Each shows only where the station offers the
// political desk (`political_access`); elsewhere the address is not found, as the API's 404.
import type { ComponentType } from "react";
import type { RouteObject } from "react-router";
import { lazyScreen } from "@/components/lazy-screen";
import { DeskGate } from "@/features/services";

function politicalRoute(path: string, load: () => Promise<ComponentType>): RouteObject {
  return { path, element: <DeskGate desk="political">{lazyScreen(load)}</DeskGate> };
}

export const politicalMemberRoutes: RouteObject[] = [
  politicalRoute("politico-sindical", async () => (await import("@/features/political/components/political-page")).PoliticalPage),
  politicalRoute("politico-sindical/temas", async () => (await import("@/features/political/components/themes-page")).ThemesPage),
  politicalRoute(
    "politico-sindical/temas/sugerir",
    async () => (await import("@/features/political/components/suggest-theme-page")).SuggestThemePage,
  ),
];

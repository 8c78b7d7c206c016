// The political-union pages (spec 002 "Political"), children of /homepage loaded when first
// opened. contato, informacoes, noticias, noticias/detalhe, cafe-com-politica and transforma
// join with the desks' shared components.
import type { RouteObject } from "react-router";
import { lazyScreen } from "@/components/lazy-screen";

export const politicalMemberRoutes: RouteObject[] = [
  {
    path: "politico-sindical",
    element: lazyScreen(async () => (await import("@/features/political/components/political-page")).PoliticalPage),
  },
  {
    path: "politico-sindical/temas",
    element: lazyScreen(async () => (await import("@/features/political/components/themes-page")).ThemesPage),
  },
  {
    path: "politico-sindical/temas/sugerir",
    element: lazyScreen(async () => (await import("@/features/political/components/suggest-theme-page")).SuggestThemePage),
  },
];

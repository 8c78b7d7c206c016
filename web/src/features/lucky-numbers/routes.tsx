// The member's lucky numbers, a child of /homepage loaded when first opened.
import type { RouteObject } from "react-router";
import { lazyScreen } from "@/components/lazy-screen";

export const luckyNumbersMemberRoutes: RouteObject[] = [
  {
    path: "numeros-da-sorte",
    element: lazyScreen(async () => (await import("@/features/lucky-numbers/components/lucky-numbers-page")).LuckyNumbersPage),
  },
];

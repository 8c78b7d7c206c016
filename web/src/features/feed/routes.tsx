// The Mural, a child of /homepage loaded when first opened.
import type { RouteObject } from "react-router";
import { lazyScreen } from "@/components/lazy-screen";

export const feedMemberRoutes: RouteObject[] = [
  {
    path: "feed",
    element: lazyScreen(async () => (await import("@/features/feed/components/feed-page")).FeedPage),
  },
];

// A station's content, children of /homepage loaded when first opened: news, downloads and
// transparency documents.
import type { RouteObject } from "react-router";
import { lazyScreen } from "@/components/lazy-screen";

export const contentMemberRoutes: RouteObject[] = [
  {
    path: "noticias",
    element: lazyScreen(async () => (await import("@/features/content/components/news-page")).NewsPage),
  },
  {
    path: "noticias/:id",
    element: lazyScreen(async () => (await import("@/features/content/components/news-detail-page")).NewsDetailPage),
  },
  {
    path: "downloads",
    element: lazyScreen(async () => (await import("@/features/content/components/downloads-page")).DownloadsPage),
  },
  {
    path: "downloads/:id",
    element: lazyScreen(async () => (await import("@/features/content/components/download-detail-page")).DownloadDetailPage),
  },
  {
    path: "prestacao-de-contas",
    element: lazyScreen(async () => (await import("@/features/content/components/transparency-page")).TransparencyPage),
  },
];

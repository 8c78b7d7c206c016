// 'Meus convites', a child of /homepage loaded when first opened.
import type { RouteObject } from "react-router";
import { lazyScreen } from "@/components/lazy-screen";

export const invitationsMemberRoutes: RouteObject[] = [
  {
    path: "convites-do-usuario",
    element: lazyScreen(async () => (await import("@/features/invitations/components/invitations-page")).InvitationsPage),
  },
];

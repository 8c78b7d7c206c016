// The member's wallet pages, children of /homepage, loaded when first opened.
import type { RouteObject } from "react-router";

export const walletMemberRoutes: RouteObject[] = [
  {
    path: "extrato/extratos-totais",
    lazy: async () => ({ Component: (await import("@/features/wallet/components/statement-page")).StatementPage }),
  },
];

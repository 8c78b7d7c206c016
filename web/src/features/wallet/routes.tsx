// The member's wallet pages, children of /homepage, loaded when first opened.
import type { RouteObject } from "react-router";
import { lazyScreen } from "@/components/lazy-screen";

export const walletMemberRoutes: RouteObject[] = [
  {
    path: "extrato/extratos-totais",
    element: lazyScreen(async () => (await import("@/features/wallet/components/statement-page")).StatementPage),
  },
  {
    path: "meios-de-pagamento/comprar",
    element: lazyScreen(async () => (await import("@/features/wallet/components/top-up-page")).TopUpPage),
  },
];

// The member's payment methods, children of /homepage, loaded when first opened
// (/homepage/meios-de-pagamento/comprar, the top-up, is the wallet's).
import type { RouteObject } from "react-router";
import { lazyScreen } from "@/components/lazy-screen";

export const paymentMethodsMemberRoutes: RouteObject[] = [
  {
    path: "meios-de-pagamento",
    element: lazyScreen(async () => (await import("@/features/payment-methods/components/payment-methods-page")).PaymentMethodsPage),
  },
  {
    path: "meios-de-pagamento/criar",
    element: lazyScreen(async () => (await import("@/features/payment-methods/components/new-card-page")).NewCardPage),
  },
];

// The member's plans and subscriptions screens, children of /homepage, each loaded when
// first opened. Apart from routes.tsx so that only the member area's chunk carries this
// table, not the entry (the member area imports it through the feature's index).
import type { RouteObject } from "react-router";
import { lazyScreen } from "@/components/lazy-screen";

export const subscriptionsMemberRoutes: RouteObject[] = [
  {
    path: "planos",
    element: lazyScreen(async () => (await import("@/features/subscriptions/components/plans-page")).PlansPage),
  },
  {
    path: "planos/editar-pagamento",
    element: lazyScreen(async () => (await import("@/features/subscriptions/components/edit-payment-page")).EditPaymentPage),
  },
  {
    path: "planos/sobconsulta",
    element: lazyScreen(async () => (await import("@/features/subscriptions/components/enterprise-page")).EnterprisePage),
  },
  {
    path: "planos/:id/:action",
    element: lazyScreen(async () => (await import("@/features/subscriptions/components/plan-purchase-page")).PlanPurchasePage),
  },
  {
    path: "cartao-assinatura",
    element: lazyScreen(
      async () => (await import("@/features/subscriptions/components/subscription-card-page")).SubscriptionCardPage,
    ),
  },
  {
    path: "assinaturas/:actionId?",
    element: lazyScreen(async () => (await import("@/features/subscriptions/components/subscriptions-page")).SubscriptionsPage),
  },
];

// The plans and subscriptions screens, each loaded when first opened: the member's under
// /homepage, and the public plan page.
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

export const subscriptionsPublicRoutes: RouteObject[] = [
  {
    path: "planos/:id",
    element: lazyScreen(async () => (await import("@/features/subscriptions/components/public-plan-page")).PublicPlanPage),
  },
];

// The shop's screens, children of /homepage, each loaded when first opened.
import type { RouteObject } from "react-router";
import { lazyScreen } from "@/components/lazy-screen";

export const commerceMemberRoutes: RouteObject[] = [
  {
    path: "shopping/:id",
    element: lazyScreen(async () => (await import("@/features/commerce/components/shopping-page")).ShoppingPage),
  },
  {
    path: "carrinho",
    element: lazyScreen(async () => (await import("@/features/commerce/components/cart-page")).CartPage),
  },
  {
    path: "pedidos",
    element: lazyScreen(async () => (await import("@/features/commerce/components/orders-page")).OrdersPage),
  },
  {
    path: "pedidos/:id",
    element: lazyScreen(async () => (await import("@/features/commerce/components/order-page")).OrderPage),
  },
  {
    path: "vouchers",
    element: lazyScreen(async () => (await import("@/features/commerce/components/vouchers-page")).VouchersPage),
  },
  {
    path: "minhas-compras",
    element: lazyScreen(async () => (await import("@/features/commerce/components/purchases-page")).PurchasesPage),
  },
];


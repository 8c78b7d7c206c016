import type { RouteObject } from "react-router";

/**
 * Loads every `lazy` route module now and puts what it returns on the route, so a router
 * built from `routes` renders its first screen at once, as the tests expect; the lazy
 * loading itself is tested on its own (app/lazy-routes.test.tsx).
 */
export async function resolveLazyRoutes(routes: RouteObject[]): Promise<void> {
  await Promise.all(
    routes.map(async (route) => {
      if (typeof route.lazy === "function") {
        Object.assign(route, await route.lazy());
        delete route.lazy;
      }
      if (route.children) await resolveLazyRoutes(route.children);
    }),
  );
}

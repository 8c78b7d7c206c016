import { render } from "@testing-library/react";
import { createMemoryRouter } from "react-router";
import { RouterProvider } from "react-router/dom";
import { appRoutes } from "@/app/app-routes";
import { buildStation } from "@/testing/fixtures";
import { resolveLazyRoutes } from "@/testing/lazy-routes";
import { TestProviders } from "@/testing/test-providers";
import type { Station } from "@/types/api";

// Screens load at once in the tests that render the app (see resolveLazyRoutes).
await resolveLazyRoutes(appRoutes);

/** Renders the app's routes at `path` for an already loaded station, without any fetch. */
export function renderApp({ path = "/", station = buildStation() }: { path?: string; station?: Station } = {}) {
  const router = createMemoryRouter(appRoutes, { initialEntries: [path] });
  const result = render(
    <TestProviders station={station}>
      <RouterProvider router={router} />
    </TestProviders>,
  );
  return { ...result, router };
}

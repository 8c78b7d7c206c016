import { render } from "@testing-library/react";
import { createMemoryRouter } from "react-router";
import { RouterProvider } from "react-router/dom";
import { appRoutes } from "@/app/app-routes";
import { QueryProvider } from "@/app/query-provider";
import { SnackbarProvider } from "@/components/snackbar/snackbar-provider";
import { ToastProvider } from "@/components/toasts/toast-provider";
import { StationContext } from "@/features/station";
import { buildStation } from "@/testing/fixtures";
import type { Station } from "@/types/api";

/** Renders the app's routes at `path` for an already loaded station, without any fetch. */
export function renderApp({ path = "/", station = buildStation() }: { path?: string; station?: Station } = {}) {
  const router = createMemoryRouter(appRoutes, { initialEntries: [path] });
  const result = render(
    <ToastProvider>
      <SnackbarProvider>
        <QueryProvider>
          <StationContext value={station}>
            <RouterProvider router={router} />
          </StationContext>
        </QueryProvider>
      </SnackbarProvider>
    </ToastProvider>,
  );
  return { ...result, router };
}

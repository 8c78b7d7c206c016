// Screens are loaded when first opened, with the loading page meanwhile. This file builds
// its own router: renderApp loads every screen up front.
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { createMemoryRouter } from "react-router";
import { RouterProvider } from "react-router/dom";
import { beforeEach, describe, expect, it } from "vitest";
import { appRoutes } from "@/app/app-routes";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { buildStation } from "@/testing/fixtures";
import { stubApi } from "@/testing/stub-api";
import { TestProviders } from "@/testing/test-providers";

const LOADING_TEXT = "Aguarde um momento...";

function renderAt(path: string) {
  const router = createMemoryRouter(appRoutes, { initialEntries: [path] });
  render(
    <TestProviders station={buildStation()}>
      <RouterProvider router={router} />
    </TestProviders>,
  );
  return router;
}

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  stubApi();
});

describe("lazy screens", () => {
  it("show the loading page while the first screen loads", async () => {
    renderAt("/login");

    expect(screen.getByText(LOADING_TEXT)).toBeInTheDocument();
    expect(await screen.findByRole("heading", { name: "Acesse a sua conta" })).toBeInTheDocument();
    expect(screen.queryByText(LOADING_TEXT)).not.toBeInTheDocument();
  });

  it("show the loading page while a screen opened later loads", async () => {
    const router = renderAt("/");
    fireEvent.click(await screen.findByRole("link", { name: "Cadastre-se" }));

    expect(router.state.navigation.state).toBe("loading");
    expect(screen.getByText(LOADING_TEXT)).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe("/cadastrar"));
    await waitFor(() => expect(screen.queryByText(LOADING_TEXT)).not.toBeInTheDocument());
  });
});

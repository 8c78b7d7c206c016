// Screens are loaded when first opened, with the loading page meanwhile. This file is the one
// that renders the app before any screen is loaded (renderApp loads every screen up front).
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import type { Location } from "react-router";
import { beforeEach, describe, expect, it } from "vitest";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { buildStation } from "@/testing/fixtures";
import { AppRoutesAt } from "@/testing/render-app-routes";
import { stubApi } from "@/testing/stub-api";
import { TestProviders } from "@/testing/test-providers";

const LOADING_TEXT = "Aguarde um momento...";

function renderAt(path: string) {
  const seen: Location[] = [];
  render(
    <TestProviders station={buildStation()}>
      <AppRoutesAt path={path} onView={({ location }) => seen.push(location)} />
    </TestProviders>,
  );
  return { pathname: () => seen.at(-1)?.pathname };
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
    const app = renderAt("/");
    fireEvent.click(await screen.findByRole("link", { name: "Cadastre-se" }));

    await waitFor(() => expect(app.pathname()).toBe("/cadastrar"));
    expect(screen.getByText(LOADING_TEXT)).toBeInTheDocument();
    expect(await screen.findByRole("heading", { name: "Cadastre-se" })).toBeInTheDocument();
    expect(screen.queryByText(LOADING_TEXT)).not.toBeInTheDocument();
  });
});

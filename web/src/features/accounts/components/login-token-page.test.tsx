import { screen, waitFor } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { loadPage } from "@/features/accounts/full-page-navigation";
import { stubApi } from "@/testing/stub-api";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { getStoredSession } from "@/lib/session-store";
import { buildStation, buildUser, jsonResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";

vi.mock("@/features/accounts/full-page-navigation", () => ({ loadPage: vi.fn() }));

const LOGIN_TOKEN = "POST /api/auth/login-token";

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  vi.mocked(loadPage).mockClear();
});

describe("/login-token/{token}", () => {
  it("starts a session with the link's token, not a stored one, and goes home", async () => {
    signIn({}, "old-token");
    const user = buildUser({ id: 9 });
    const api = stubApi({ [LOGIN_TOKEN]: () => jsonResponse({ token: "new-token", user }) });
    renderApp({ path: "/login-token/abc123" });

    expect(screen.getByText("Aguarde um momento...")).toBeInTheDocument();
    await waitFor(() => expect(loadPage).toHaveBeenCalledWith("/"));
    expect(api.authorizationSentTo(LOGIN_TOKEN)).toBe("Bearer abc123");
    expect(api.callsTo(LOGIN_TOKEN)).toHaveLength(1);
    expect(getStoredSession()).toEqual({ user, token: "new-token" });
  });

  it("sends an unfinished briefing to /signup", async () => {
    stubApi({ [LOGIN_TOKEN]: () => jsonResponse({ token: "new-token", user: buildUser({ briefingDone: false }) }) });
    const { page } = renderApp({ path: "/login-token/abc123" });

    await waitFor(() => expect(page.location.pathname).toBe("/signup"));
  });

  it("does not hand station 13's members back to the app they came from", async () => {
    const api = stubApi({ [LOGIN_TOKEN]: () => jsonResponse({ token: "new-token", user: buildUser() }) });
    renderApp({ path: "/login-token/abc123", station: buildStation({ id: 13, url: "https://app.exemplo.com.br" }) });

    await waitFor(() => expect(loadPage).toHaveBeenCalledWith("/"));
    expect(api.callsTo("POST /api/auth/login-token/issue")).toHaveLength(0);
  });

  it("explains an invalid link and offers the login", async () => {
    const message = "Este link de acesso é inválido ou expirou. Entre novamente.";
    stubApi({ [LOGIN_TOKEN]: () => jsonResponse({ messages: [message] }, 401) });
    renderApp({ path: "/login-token/usado" });

    expect(await screen.findByRole("heading", { name: "Não foi possível entrar" })).toBeInTheDocument();
    expect(screen.getByText(message)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Ir para o login" })).toHaveAttribute("href", "/login");
    expect(getStoredSession()).toBeNull();
    expect(loadPage).not.toHaveBeenCalled();
  });
});

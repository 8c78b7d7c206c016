// The session's life in the whole app: /logout, the token check at start and a 401 from any call.
import { screen, waitFor } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { getStoredSession } from "@/lib/session-store";
import { buildUser, buildWalletBalance, jsonResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { stubApi, VALIDATE_TOKEN } from "@/testing/stub-api";

const LOGOUT = "POST /api/auth/logout";
const BALANCE = "GET /api/users-points/1";
const NOT_AUTHORIZED = { error: "Você não possui autorização para acessar esta página." };

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
});

describe("/logout", () => {
  it("revokes the session on the server, forgets it here and goes to /", async () => {
    signIn({}, "member-token");
    const api = stubApi({ [LOGOUT]: () => new Response(null, { status: 204 }) });
    const { page } = renderApp({ path: "/logout" });

    expect(await screen.findByRole("link", { name: "Entrar" })).toBeInTheDocument();
    expect(page.location.pathname).toBe("/");
    expect(getStoredSession()).toBeNull();
    expect(api.callsTo(LOGOUT)).toHaveLength(1);
    expect(api.authorizationSentTo(LOGOUT)).toBe("Bearer member-token");
  });

  it("signs out here even when the server cannot be reached", async () => {
    signIn();
    stubApi();
    const { page } = renderApp({ path: "/logout" });

    expect(await screen.findByRole("link", { name: "Entrar" })).toBeInTheDocument();
    expect(page.location.pathname).toBe("/");
    expect(getStoredSession()).toBeNull();
  });

  it("takes a 401 (the session had already ended) as done, not as a failure", async () => {
    signIn();
    stubApi({ [LOGOUT]: () => jsonResponse(NOT_AUTHORIZED, 401) });
    const { page } = renderApp({ path: "/logout" });

    expect(await screen.findByRole("link", { name: "Entrar" })).toBeInTheDocument();
    expect(page.location.pathname).toBe("/");
  });
});

describe("the stored token at start", () => {
  it("is validated with the stored token", async () => {
    signIn({}, "member-token");
    const api = stubApi({ [BALANCE]: () => jsonResponse(buildWalletBalance()) });
    renderApp({ path: "/homepage" });

    await waitFor(() => expect(api.callsTo(VALIDATE_TOKEN)).toHaveLength(1));
    expect(api.authorizationSentTo(VALIDATE_TOKEN)).toBe("Bearer member-token");
  });

  it("found invalid clears the stored user, and the member area sends the visitor to /", async () => {
    signIn();
    stubApi({
      [VALIDATE_TOKEN]: () => jsonResponse({ valid: false, user: null }),
      [BALANCE]: () => jsonResponse(buildWalletBalance()),
    });
    const { page } = renderApp({ path: "/homepage" });

    expect(await screen.findByRole("link", { name: "Entrar" })).toBeInTheDocument();
    expect(page.location.pathname).toBe("/");
    expect(getStoredSession()).toBeNull();
  });

  it("found valid keeps the session with the user as the server has it now", async () => {
    signIn({ name: "Maria Silva" }, "member-token");
    stubApi({
      [VALIDATE_TOKEN]: () => jsonResponse({ valid: true, user: buildUser({ name: "Maria Souza" }) }),
      [BALANCE]: () => jsonResponse(buildWalletBalance()),
    });
    renderApp({ path: "/homepage" });

    expect(await screen.findByRole("heading", { name: "Início" })).toBeInTheDocument();
    await waitFor(() =>
      expect(getStoredSession()).toEqual({ token: "member-token", user: buildUser({ name: "Maria Souza" }) }),
    );
  });

  it("is not asked for a visitor", async () => {
    const api = stubApi();
    renderApp();

    expect(await screen.findByRole("link", { name: "Entrar" })).toBeInTheDocument();
    expect(api.callsTo(VALIDATE_TOKEN)).toHaveLength(0);
  });
});

describe("a 401 from a call made with the session", () => {
  it("forgets the session and goes to /login", async () => {
    signIn();
    stubApi({ [BALANCE]: () => jsonResponse(NOT_AUTHORIZED, 401) });
    const { page } = renderApp({ path: "/homepage" });

    await waitFor(() => expect(page.location.pathname).toBe("/login"));
    expect(getStoredSession()).toBeNull();
    expect(await screen.findByRole("button", { name: "Entrar" })).toBeInTheDocument();
  });
});

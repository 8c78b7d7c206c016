import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { getStoredSession } from "@/lib/session-store";
import { signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { stubApi } from "@/testing/stub-api";

const BLOCKED_TEXT = "O seu acesso está supenso...";
const LOGOUT = "POST /api/auth/logout";

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  signIn({ deletedAt: "2026-11-01T00:00:00Z" }, "blocked-token");
});

describe("blocked-account modal", () => {
  it("cannot be dismissed: no close button, Escape and the backdrop do nothing", async () => {
    renderApp({ path: "/homepage" });

    const modal = await screen.findByRole("dialog", { name: BLOCKED_TEXT });
    expect(within(modal).queryByRole("button")).not.toBeInTheDocument();
    fireEvent.keyDown(modal, { key: "Escape" });
    fireEvent.click(modal.parentElement as HTMLElement);

    expect(screen.getByRole("dialog", { name: BLOCKED_TEXT })).toBeInTheDocument();
    expect(getStoredSession()).not.toBeNull();
  });

  it("'Fale conosco' revokes the session on the server, forgets it and opens /suporte", async () => {
    const api = stubApi({ [LOGOUT]: () => new Response(null, { status: 204 }) });
    const { page } = renderApp({ path: "/homepage" });

    const modal = await screen.findByRole("dialog", { name: BLOCKED_TEXT });
    fireEvent.click(within(modal).getByRole("link", { name: "Fale conosco" }));

    await waitFor(() => expect(page.location.pathname).toBe("/suporte"));
    expect(getStoredSession()).toBeNull();
    expect(screen.queryByRole("dialog", { name: BLOCKED_TEXT })).not.toBeInTheDocument();
    expect(api.callsTo(LOGOUT)).toHaveLength(1);
    expect(api.authorizationSentTo(LOGOUT)).toBe("Bearer blocked-token");
  });

  it("signs out locally even when the server cannot be reached", async () => {
    // No answer for the logout: it fails as a network error would.
    stubApi();
    const { page } = renderApp({ path: "/homepage" });

    fireEvent.click(await screen.findByRole("link", { name: "Fale conosco" }));

    await waitFor(() => expect(page.location.pathname).toBe("/suporte"));
    expect(getStoredSession()).toBeNull();
  });
});

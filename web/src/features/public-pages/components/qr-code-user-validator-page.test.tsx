import { screen } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { stubFetchAnswers } from "@/features/jobs/testing/job-fixtures";
import { jsonResponse } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
});

describe("/qr-code-user-validator/{id}", () => {
  it("shows a spinner until the answer comes", () => {
    vi.stubGlobal("fetch", vi.fn(() => new Promise<Response>(() => undefined)));
    renderApp({ path: "/qr-code-user-validator/42" });

    expect(screen.getByText("Aguarde um momento...").closest('[role="status"]')).not.toBeNull();
    expect(screen.queryByRole("heading")).not.toBeInTheDocument();
  });

  it("says 'Usuário válido!' for a valid member, asking without a session", async () => {
    const fetchMock = stubFetchAnswers(() => jsonResponse({ isValid: true }));
    renderApp({ path: "/qr-code-user-validator/42" });

    expect(await screen.findByRole("heading", { name: "Usuário válido!" })).toBeInTheDocument();
    expect(screen.queryByRole("heading", { name: "Usuário inválido!" })).not.toBeInTheDocument();
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe("/api/users/42/validation");
    expect(new Headers(init?.headers).has("Authorization")).toBe(false);
  });

  it("says 'Usuário inválido!' for a member who is not valid", async () => {
    stubFetchAnswers(() => jsonResponse({ isValid: false }));
    renderApp({ path: "/qr-code-user-validator/999999999" });

    expect(await screen.findByRole("heading", { name: "Usuário inválido!" })).toBeInTheDocument();
  });

  it("says 'Usuário inválido!' for an id the API refuses", async () => {
    stubFetchAnswers(() => jsonResponse({ error: "Parâmetro inválido na URL" }, 400));
    renderApp({ path: "/qr-code-user-validator/abc" });

    expect(await screen.findByRole("heading", { name: "Usuário inválido!" })).toBeInTheDocument();
  });
});

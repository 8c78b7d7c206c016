import { screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { stubApi } from "@/testing/stub-api";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { buildStation, buildUser, jsonResponse } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";

const ACTIVATE = "POST /api/auth/signup/activate-participant/";

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
});

describe("/ativar/{hash}/{email}", () => {
  it.each([
    ["the link's token", "f3a9c2d4e5b6a7c8d9e0f1a2b3c4d5e6"],
    ["a 6-digit code", "123456"],
  ])("activates with %s while the page waits, then goes to /login", async (_case, hash) => {
    const api = stubApi({ [ACTIVATE]: () => jsonResponse({ message: "Sucesso! Código validado", user: buildUser() }) });
    const { page } = renderApp({ path: `/ativar/${hash}/maria%40filia.example`, station: buildStation({ id: 7 }) });

    expect(screen.getByText("Aguarde um momento...")).toBeInTheDocument();
    expect(await screen.findByText("Sucesso! Código validado")).toBeInTheDocument();
    expect(page.location.pathname).toBe("/login");
    expect(api.callsTo(ACTIVATE)).toHaveLength(1);
    expect(api.bodySentTo(ACTIVATE)).toEqual({ station: 7, establishment: 3, email: "maria@filia.example", hash });
  });

  it("goes to /confirmacao/{email} with the server's message when activation fails", async () => {
    stubApi({ [ACTIVATE]: () => jsonResponse({ messages: ["Link de ativação inválido ou expirado."] }, 422) });
    const { page } = renderApp({ path: "/ativar/velho/maria%40filia.example" });

    expect(await screen.findByRole("heading", { name: "Confirme o seu cadastro" })).toBeInTheDocument();
    await waitFor(() => expect(page.location.pathname).toBe("/confirmacao/maria%40filia.example"));
    const notifications = within(screen.getByRole("region", { name: "Notificações" }));
    expect(notifications.getByText("Link de ativação inválido ou expirado.")).toBeInTheDocument();
    expect(screen.getByText("maria@filia.example")).toBeInTheDocument();
  });
});

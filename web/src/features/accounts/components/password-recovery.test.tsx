import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { stubApi } from "@/testing/stub-api";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { MESSAGES } from "@/lib/validators";
import { buildStation, jsonResponse } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";

const FORGOT = "POST /api/auth/validate-email-forgot-pass";
const UPDATE = "POST /api/auth/update-password";
const station = buildStation({ id: 7 });

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
});

function fillIn(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

const notifications = () => within(screen.getByRole("region", { name: "Notificações" }));

describe("/esqueci-minha-senha", () => {
  async function renderForgot() {
    const rendered = renderApp({ path: "/esqueci-minha-senha", station });
    await screen.findByRole("heading", { name: "Esqueci minha senha" });
    return rendered;
  }

  it("has a back link to /login and a button that waits for an e-mail", async () => {
    await renderForgot();

    expect(screen.getByRole("link", { name: "Voltar para o login" })).toHaveAttribute("href", "/login");
    expect(screen.getByRole("button", { name: "Enviar" })).toBeDisabled();
    fillIn("E-mail", "maria@filia.example");
    expect(screen.getByRole("button", { name: "Enviar" })).toBeEnabled();
  });

  it("checks the e-mail before calling the API", async () => {
    const { fetchMock } = stubApi({});
    await renderForgot();

    fillIn("E-mail", "maria.filia.example");
    fireEvent.click(screen.getByRole("button", { name: "Enviar" }));

    expect(screen.getByText("Email inválido")).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("asks for the link and says to look in the mailbox", async () => {
    const api = stubApi({ [FORGOT]: () => jsonResponse({ message: "Sucesso! Verifique sua caixa de e-mails" }) });
    await renderForgot();

    fillIn("E-mail", " maria@filia.example ");
    fireEvent.click(screen.getByRole("button", { name: "Enviar" }));

    expect(await screen.findByText("Sucesso! Verifique sua caixa de e-mails")).toHaveAttribute("role", "status");
    expect(api.bodySentTo(FORGOT)).toEqual({ email: "maria@filia.example", station_id: 7 });
    expect(screen.queryByLabelText("E-mail")).not.toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Voltar para o login" })).toBeInTheDocument();
  });

  it("shows the server's message when the request fails", async () => {
    stubApi({ [FORGOT]: () => jsonResponse({ messages: ["Email inválido"] }, 422) });
    await renderForgot();

    fillIn("E-mail", "maria@filia.example");
    fireEvent.click(screen.getByRole("button", { name: "Enviar" }));

    expect(await notifications().findByText("Email inválido")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Enviar" })).toBeEnabled();
  });
});

describe("/redefinir-senha/{userHash}/{userEmail}", () => {
  async function renderReset() {
    const rendered = renderApp({ path: "/redefinir-senha/h4sh/maria%40filia.example", station });
    await screen.findByRole("heading", { name: "Redefinir senha" });
    return rendered;
  }

  const save = () => fireEvent.click(screen.getByRole("button", { name: "Salvar nova senha" }));

  it("requires both fields", async () => {
    const { fetchMock } = stubApi({});
    await renderReset();

    save();

    expect(screen.getAllByText("Esse campo é obrigatório")).toHaveLength(2);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("applies the password rule", async () => {
    await renderReset();

    fillIn("Nova senha", "fraca");
    fillIn("Confirme a nova senha", "fraca");
    save();

    expect(screen.getByText(MESSAGES.password)).toBeInTheDocument();
  });

  it("says when the passwords differ", async () => {
    const { fetchMock } = stubApi({});
    await renderReset();

    fillIn("Nova senha", "NovaSenha123");
    fillIn("Confirme a nova senha", "NovaSenha124");
    save();

    expect(screen.getByLabelText("Confirme a nova senha")).toHaveAccessibleDescription("As senhas não conferem.");
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("saves the new password and goes to /login, which says it works", async () => {
    const api = stubApi({ [UPDATE]: () => jsonResponse({ message: "Sucesso! Você já pode logar com a nova senha" }) });
    const { page } = await renderReset();

    fillIn("Nova senha", "NovaSenha123");
    fillIn("Confirme a nova senha", "NovaSenha123");
    save();

    expect(await screen.findByText("Sucesso! Você já pode logar com a nova senha")).toBeInTheDocument();
    expect(page.location.pathname).toBe("/login");
    expect(api.bodySentTo(UPDATE)).toEqual({
      password: "NovaSenha123",
      password_confirmation: "NovaSenha123",
      userHash: "h4sh",
      userEmail: "maria@filia.example",
      station_id: 7,
    });
  });

  it("shows the server's message for a used link and stays", async () => {
    const message = "Link de redefinição inválido ou expirado. Solicite um novo.";
    stubApi({ [UPDATE]: () => jsonResponse({ messages: [message] }, 422) });
    const { page } = await renderReset();

    fillIn("Nova senha", "NovaSenha123");
    fillIn("Confirme a nova senha", "NovaSenha123");
    save();

    expect(await notifications().findByText(message)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole("button", { name: "Salvar nova senha" })).toBeEnabled());
    expect(page.location.pathname).toBe("/redefinir-senha/h4sh/maria%40filia.example");
  });
});

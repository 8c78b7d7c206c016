import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { loadPage } from "@/features/accounts/full-page-navigation";
import { stubApi } from "@/testing/stub-api";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { onSessionRejected } from "@/lib/api-client";
import { getStoredSession } from "@/lib/session-store";
import { buildStation, buildUser, jsonResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";

vi.mock("@/features/accounts/full-page-navigation", () => ({ loadPage: vi.fn() }));

const LOGIN = "POST /api/auth/login/establishment/7";
const ISSUE = "POST /api/auth/login-token/issue";
const emailStation = buildStation({ id: 7, login_with: "email" });
const cpfStation = buildStation({ id: 7, login_with: "cpf" });

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  vi.mocked(loadPage).mockClear();
});

const submitButton = () => screen.getByRole("button", { name: "Entrar" });

async function renderLogin(station = emailStation) {
  const rendered = renderApp({ path: "/login", station });
  await screen.findByRole("heading", { name: "Acesse a sua conta" });
  return rendered;
}

function fillIn(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

function notifications() {
  return within(screen.getByRole("region", { name: "Notificações" }));
}

describe("/login", () => {
  it("asks for e-mail and password, with links to recovery and sign-up", async () => {
    await renderLogin();

    expect(screen.getByLabelText("E-mail")).toHaveAttribute("type", "email");
    expect(screen.getByLabelText("Senha")).toHaveAttribute("type", "password");
    expect(screen.getByRole("link", { name: "Esqueci minha senha" })).toHaveAttribute("href", "/esqueci-minha-senha");
    expect(screen.getByRole("link", { name: "Cadastre-se" })).toHaveAttribute("href", "/cadastrar");
  });

  it("keeps 'Entrar' disabled until identifier and password are filled", async () => {
    await renderLogin();

    expect(submitButton()).toBeDisabled();
    fillIn("E-mail", "maria@filia.example");
    expect(submitButton()).toBeDisabled();
    fillIn("Senha", "Segredo123");
    expect(submitButton()).toBeEnabled();
    fillIn("E-mail", "");
    expect(submitButton()).toBeDisabled();
  });

  it("says a field left empty is required", async () => {
    await renderLogin();

    fireEvent.blur(screen.getByLabelText("E-mail"));

    expect(screen.getByText("Esse campo é obrigatório")).toBeInTheDocument();
    expect(screen.getByLabelText("E-mail")).toHaveAttribute("aria-invalid", "true");
  });

  it("checks the e-mail before calling the API", async () => {
    const { fetchMock } = stubApi({});
    await renderLogin();

    fillIn("E-mail", "maria@filia");
    fillIn("Senha", "Segredo123");
    fireEvent.click(submitButton());

    expect(screen.getByText("Email inválido")).toBeInTheDocument();
    expect(screen.getByLabelText("E-mail")).toHaveAccessibleDescription("Email inválido");
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("asks for a masked CPF where the station logs in with CPF, and checks it", async () => {
    const { fetchMock } = stubApi({});
    await renderLogin(cpfStation);

    fillIn("CPF", "11111111111");
    expect(screen.getByLabelText("CPF")).toHaveValue("111.111.111-11");
    fillIn("Senha", "Segredo123");
    fireEvent.click(submitButton());

    expect(screen.getByText("CPF inválido")).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("logs in with the bare CPF digits", async () => {
    const api = stubApi({ [LOGIN]: () => jsonResponse({ token: "new-token", user: buildUser() }) });
    await renderLogin(cpfStation);

    fillIn("CPF", "52998224725");
    fillIn("Senha", "Segredo123");
    fireEvent.click(submitButton());

    await waitFor(() => expect(loadPage).toHaveBeenCalledWith("/"));
    expect(api.bodySentTo(LOGIN)).toEqual({ cpf: "52998224725", password: "Segredo123" });
  });

  it("stores the session and reloads the app at / after a login with a finished briefing", async () => {
    const user = buildUser({ briefingDone: true });
    const api = stubApi({ [LOGIN]: () => jsonResponse({ token: "new-token", user }) });
    await renderLogin();

    fillIn("E-mail", " maria@filia.example ");
    fillIn("Senha", "Segredo123");
    fireEvent.click(submitButton());

    expect(submitButton()).toBeDisabled();
    await waitFor(() => expect(loadPage).toHaveBeenCalledWith("/"));
    expect(api.bodySentTo(LOGIN)).toEqual({ email: "maria@filia.example", password: "Segredo123" });
    expect(getStoredSession()).toEqual({ user, token: "new-token" });
    expect(submitButton()).toBeDisabled();
  });

  it("sends a first login (briefing not done) to /signup", async () => {
    stubApi({ [LOGIN]: () => jsonResponse({ token: "new-token", user: buildUser({ briefingDone: false }) }) });
    const { page } = await renderLogin();

    fillIn("E-mail", "maria@filia.example");
    fillIn("Senha", "Segredo123");
    fireEvent.click(submitButton());

    await waitFor(() => expect(page.location.pathname).toBe("/signup"));
    expect(getStoredSession()?.token).toBe("new-token");
    expect(loadPage).not.toHaveBeenCalled();
  });

  it("hands a member of station 13 over to the station's app with a login token", async () => {
    const station = buildStation({ id: 13, url: "https://app.exemplo.com.br/" });
    const api = stubApi({
      "POST /api/auth/login/establishment/13": () => jsonResponse({ token: "new-token", user: buildUser() }),
      [ISSUE]: () => jsonResponse({ token: "hand-over", expires_at: "2026-11-21T10:02:00Z" }),
    });
    await renderLogin(station);

    fillIn("E-mail", "maria@filia.example");
    fillIn("Senha", "Segredo123");
    fireEvent.click(submitButton());

    await waitFor(() => expect(loadPage).toHaveBeenCalledWith("https://app.exemplo.com.br/login-token/hand-over"));
    expect(api.authorizationSentTo(ISSUE)).toBe("Bearer new-token");
  });

  it("keeps a member of station 13 here when the hand-over token cannot be issued", async () => {
    stubApi({
      "POST /api/auth/login/establishment/13": () => jsonResponse({ token: "new-token", user: buildUser() }),
      [ISSUE]: () => jsonResponse({ messages: ["Erro interno no servidor"] }, 500),
    });
    await renderLogin(buildStation({ id: 13, url: "https://app.exemplo.com.br" }));

    fillIn("E-mail", "maria@filia.example");
    fillIn("Senha", "Segredo123");
    fireEvent.click(submitButton());

    await waitFor(() => expect(loadPage).toHaveBeenCalledWith("/"));
  });

  it("sends station 13's first login to /signup, not to the app", async () => {
    stubApi({
      "POST /api/auth/login/establishment/13": () =>
        jsonResponse({ token: "new-token", user: buildUser({ briefingDone: false }) }),
    });
    const { page } = await renderLogin(buildStation({ id: 13 }));

    fillIn("E-mail", "maria@filia.example");
    fillIn("Senha", "Segredo123");
    fireEvent.click(submitButton());

    await waitFor(() => expect(page.location.pathname).toBe("/signup"));
  });

  it("shows the server's message and opens sign-up at step 2 for an account awaiting its code", async () => {
    const message = "Confirme o seu cadastro para entrar: escolha onde receber o código de verificação.";
    const affiliate = { id: 41, email: "ma***@fi***.example", celular: null, tel: null, isFiliado: false };
    stubApi({ [LOGIN]: () => jsonResponse({ messages: [message], affiliate }, 401) });
    const { page } = await renderLogin();

    fillIn("E-mail", "maria@filia.example");
    fillIn("Senha", "Segredo123");
    fireEvent.click(submitButton());

    await waitFor(() => expect(page.location.pathname).toBe("/cadastrar"));
    expect(page.location.state).toEqual({ stepForm: 2, affiliate });
    expect(notifications().getByText(message)).toBeInTheDocument();
    expect(notifications().getByText("Erro")).toBeInTheDocument();
    expect(getStoredSession()).toBeNull();
  });

  it.each([
    ["a wrong password", 401, "E-mail, CPF ou senha incorretos."],
    ["too many attempts", 429, "Muitas tentativas de acesso sem sucesso. Aguarde alguns minutos e tente novamente."],
    ["a server failure", 500, "Erro interno no servidor"],
  ])("shows the error toast for %s and stays", async (_case, status, message) => {
    stubApi({ [LOGIN]: () => jsonResponse({ messages: [message] }, status) });
    const { page } = await renderLogin();

    fillIn("E-mail", "maria@filia.example");
    fillIn("Senha", "Errada123");
    fireEvent.click(submitButton());

    expect(await notifications().findByText(message)).toBeInTheDocument();
    expect(page.location.pathname).toBe("/login");
    expect(submitButton()).toBeEnabled();
    expect(getStoredSession()).toBeNull();
  });

  it.each([
    ["a wrong password", "E-mail, CPF ou senha incorretos.", {}],
    ["an account awaiting its code", "Confirme o seu cadastro", { affiliate: { id: 41 } }],
  ])("takes the 401 of %s as the login's answer, not as a session that ended", async (_case, message, extra) => {
    stubApi({ [LOGIN]: () => jsonResponse({ messages: [message], ...extra }, 401) });
    const sessionRejected = vi.fn();
    const unsubscribe = onSessionRejected(sessionRejected);
    await renderLogin();

    fillIn("E-mail", "maria@filia.example");
    fillIn("Senha", "Errada123");
    fireEvent.click(submitButton());

    expect(await notifications().findByText(message)).toBeInTheDocument();
    expect(sessionRejected).not.toHaveBeenCalled();
    unsubscribe();
  });

  it("sends an already signed-in user to /", async () => {
    signIn();
    const { page } = renderApp({ path: "/login", station: emailStation });

    await waitFor(() => expect(page.location.pathname).toBe("/homepage"));
  });

  it.each([
    [{ wasActived: true }, "Sucesso! Código validado"],
    [{ wasRecovered: true }, "Sucesso! Você já pode logar com a nova senha"],
  ])("says what just succeeded when it comes from activation or recovery (%o)", async (state, note) => {
    const { page } = renderApp({ path: "/", station: emailStation });

    await act(() => page.navigate("/login", { state }));

    expect(await screen.findByText(note)).toHaveAttribute("role", "status");
  });
});

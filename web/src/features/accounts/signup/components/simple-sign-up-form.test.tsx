import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { TurnstileRenderOptions } from "@/features/captcha";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { stubTurnstile, TURNSTILE_CONFIG } from "@/features/captcha/testing/stub-turnstile";
import { stubApi } from "@/testing/stub-api";
import { getStoredSession } from "@/lib/session-store";
import { buildStation, buildUser, jsonResponse } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";

const simpleStation = buildStation({ signup_flow: "simple" });
const SIGNUP = "POST /api/auth/signup";

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
});

afterEach(() => {
  delete window.turnstile;
});

function type(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

function fillValidForm({ withCpf = true } = {}) {
  if (withCpf) type("CPF", "52998224725");
  type("Data de nascimento", "05031990");
  fireEvent.change(screen.getByLabelText("Estado"), { target: { value: "SP" } });
  type("Nome", "  Ana ");
  type("Sobrenome", " Souza  ");
  type("Telefone", "11987654321");
  fireEvent.click(screen.getByRole("checkbox", { name: /Li e aceito os Termos de uso/ }));
}

describe("simple sign-up (/cadastrar)", () => {
  it("shows its fields under 'Só falta um pouquinho', with a link to login", async () => {
    stubApi();
    renderApp({ path: "/cadastrar", station: simpleStation });

    expect(await screen.findByRole("heading", { name: "Só falta um pouquinho" })).toBeInTheDocument();
    for (const label of ["CPF", "Data de nascimento", "Estado", "Nome", "Sobrenome", "Telefone"]) {
      expect(screen.getByLabelText(label)).toBeInTheDocument();
    }
    expect(screen.getAllByRole("option")).toHaveLength(28);
    expect(screen.getByRole("option", { name: "Distrito Federal" })).toHaveValue("DF");
    expect(screen.getByRole("link", { name: "Entrar" })).toHaveAttribute("href", "/login");
  });

  it("masks CPF, date and phone as typed", async () => {
    stubApi();
    renderApp({ path: "/cadastrar", station: simpleStation });
    await screen.findByLabelText("CPF");

    type("CPF", "52998224725");
    type("Data de nascimento", "05031990");
    type("Telefone", "11987654321");

    expect(screen.getByLabelText("CPF")).toHaveValue("529.982.247-25");
    expect(screen.getByLabelText("Data de nascimento")).toHaveValue("05/03/1990");
    expect(screen.getByLabelText("Telefone")).toHaveValue("(11) 98765-4321");
  });

  it("asks the e-mail instead of the CPF on no-CPF stations and sends cpf null", async () => {
    const api = stubApi({ [SIGNUP]: () => jsonResponse({ user: buildUser({ briefingDone: false }), token: "t" }, 201) });
    renderApp({ path: "/cadastrar", station: buildStation({ signup_flow: "simple", no_cpf: true }) });
    await screen.findByLabelText("Nome");

    expect(screen.queryByLabelText("CPF")).not.toBeInTheDocument();
    fillValidForm({ withCpf: false });
    type("E-mail", "ana@");
    fireEvent.click(screen.getByRole("button", { name: "Cadastrar" }));
    expect(screen.getByText("Email inválido")).toBeInTheDocument();
    type("E-mail", " Ana@Exemplo.com ");
    fireEvent.click(screen.getByRole("button", { name: "Cadastrar" }));

    await waitFor(() => expect(api.bodiesOf(SIGNUP)).toHaveLength(1));
    expect(api.bodiesOf(SIGNUP)[0]).toMatchObject({ cpf: null, email: "ana@exemplo.com" });
  });

  it("says what each empty or broken field needs and sends nothing", async () => {
    const api = stubApi();
    renderApp({ path: "/cadastrar", station: simpleStation });
    await screen.findByLabelText("CPF");

    fireEvent.click(screen.getByRole("button", { name: "Cadastrar" }));

    expect(screen.getAllByText("Esse campo é obrigatório")).toHaveLength(7);
    expect(screen.getByLabelText("CPF")).toHaveAccessibleDescription("Esse campo é obrigatório");

    type("CPF", "11111111111");
    type("Data de nascimento", "31022000");
    expect(screen.getByText("CPF inválido")).toBeInTheDocument();
    expect(screen.getByText("Data Inválida!")).toBeInTheDocument();

    const year = new Date().getFullYear() - 10;
    type("Data de nascimento", `0101${year}`);
    expect(screen.getByText("É necessário ser maior de 18 anos.")).toBeInTheDocument();

    type("Nome", "   ");
    expect(screen.getByLabelText("Nome")).toHaveAccessibleDescription("Esse campo é obrigatório");
    expect(api.bodiesOf(SIGNUP)).toHaveLength(0);
  });

  it("sends the payload, stores the session, says 'Cadastro realizado com sucesso' and goes to /signup", async () => {
    const user = buildUser({ id: 31, name: "Ana Souza", email: null, briefingDone: false });
    const api = stubApi({ [SIGNUP]: () => jsonResponse({ user, token: "new-token" }, 201) });
    const { page } = renderApp({ path: "/cadastrar", station: simpleStation });
    await screen.findByLabelText("CPF");

    fillValidForm();
    fireEvent.click(screen.getByRole("button", { name: "Cadastrar" }));

    await waitFor(() => expect(page.location.pathname).toBe("/signup"));
    expect(within(screen.getByRole("region", { name: "Notificações" })).getByText("Cadastro realizado com sucesso")).toBeInTheDocument();
    expect(api.bodiesOf(SIGNUP)).toEqual([
      {
        cpf: "52998224725",
        birthday: "1990-03-05 00:00:00",
        state: "SP",
        firstName: "Ana",
        lastName: "Souza",
        phoneNumber: "11987654321",
        captcha: "off",
        station: 7,
        type: 2,
        subdomain: "demo",
      },
    ]);
    expect(getStoredSession()).toEqual({ user, token: "new-token" });
  });

  it("shows the server's message when the sign-up is refused", async () => {
    stubApi({ [SIGNUP]: () => jsonResponse({ messages: ["Este CPF já está cadastrado."] }, 422) });
    renderApp({ path: "/cadastrar", station: simpleStation });
    await screen.findByLabelText("CPF");

    fillValidForm();
    fireEvent.click(screen.getByRole("button", { name: "Cadastrar" }));

    expect(await screen.findByText("Este CPF já está cadastrado.")).toBeInTheDocument();
    expect(getStoredSession()).toBeNull();
  });

  it("greets an invite of this station with its points and sends member_get_member", async () => {
    const api = stubApi({
      "POST /api/validate-mgm-code/AB12CD34-U15-E7": () =>
        jsonResponse({ valid: true, action: { id: 88 }, points_invited: 150, points_inviter: 300 }),
      [SIGNUP]: () => jsonResponse({ user: buildUser(), token: "t" }, 201),
    });
    renderApp({ path: "/cadastrar/AB12CD34-U15-E7", station: simpleStation });

    expect(await screen.findByRole("heading", { name: "Cadastre-se agora e ganhe 150 pontos" })).toBeInTheDocument();
    fillValidForm();
    fireEvent.click(screen.getByRole("button", { name: "Cadastrar" }));

    await waitFor(() => expect(api.bodiesOf(SIGNUP)).toHaveLength(1));
    expect(api.bodiesOf(SIGNUP)[0]).toMatchObject({ member_get_member: { action_id: 88, inviter_id: 15, code: "AB12CD34-U15-E7" } });
  });

  it.each([
    ["an invalid code", "AB12CD34-U15-E7", { valid: false, action: null, points_invited: 0, points_inviter: 0 }],
    ["another station's code", "AB12CD34-U15-E9", null],
    ["a code of another shape", "convite", null],
  ])("ignores %s", async (_case, code, answer) => {
    const api = stubApi({
      [`POST /api/validate-mgm-code/${code}`]: () => jsonResponse(answer),
      [SIGNUP]: () => jsonResponse({ user: buildUser(), token: "t" }, 201),
    });
    renderApp({ path: `/cadastrar/${code}`, station: simpleStation });

    expect(await screen.findByRole("heading", { name: "Só falta um pouquinho" })).toBeInTheDocument();
    fillValidForm();
    fireEvent.click(screen.getByRole("button", { name: "Cadastrar" }));

    await waitFor(() => expect(api.bodiesOf(SIGNUP)).toHaveLength(1));
    expect(api.bodiesOf(SIGNUP)[0]).not.toHaveProperty("member_get_member");
    if (answer === null) expect(api.calls.some((call) => call.url.includes("validate-mgm-code"))).toBe(false);
  });

  it("needs the Turnstile token when the deployment uses it, and sends it", async () => {
    let widget: TurnstileRenderOptions | undefined;
    window.turnstile = {
      render: vi.fn((_container: HTMLElement, options: TurnstileRenderOptions) => {
        widget = options;
        return "w1";
      }),
      remove: vi.fn(),
    };
    const api = stubApi(
      { [SIGNUP]: () => jsonResponse({ user: buildUser(), token: "t" }, 201) },
      { station_id: 7, captcha: { provider: "turnstile", site_key: "site-key" }, payments_sandbox: false, card_tokenizer: null, test_environment: false },
    );
    renderApp({ path: "/cadastrar", station: simpleStation });
    await screen.findByRole("group", { name: "Verificação de segurança" });
    await waitFor(() => expect(widget?.sitekey).toBe("site-key"));

    fillValidForm();
    fireEvent.click(screen.getByRole("button", { name: "Cadastrar" }));
    expect(screen.getByRole("group", { name: "Verificação de segurança" })).toHaveTextContent("Esse campo é obrigatório");
    expect(api.bodiesOf(SIGNUP)).toHaveLength(0);

    act(() => widget?.callback("turnstile-token"));
    fireEvent.click(screen.getByRole("button", { name: "Cadastrar" }));

    await waitFor(() => expect(api.bodiesOf(SIGNUP)).toHaveLength(1));
    expect(api.bodiesOf(SIGNUP)[0]).toMatchObject({ captcha: "turnstile-token" });
  });

  it("asks for a fresh captcha after a refused sign-up (a token works once)", async () => {
    const turnstile = stubTurnstile();
    let refusals = 1;
    const api = stubApi(
      {
        [SIGNUP]: () =>
          refusals-- > 0
            ? jsonResponse({ error: "Este CPF já está cadastrado." }, 422)
            : jsonResponse({ user: buildUser(), token: "t" }, 201),
      },
      TURNSTILE_CONFIG,
    );
    renderApp({ path: "/cadastrar", station: simpleStation });
    await screen.findByRole("group", { name: "Verificação de segurança" });
    fillValidForm();
    await turnstile.solve("token-1", 1);
    fireEvent.click(screen.getByRole("button", { name: "Cadastrar" }));
    await waitFor(() => expect(api.bodiesOf(SIGNUP)).toHaveLength(1));

    await waitFor(() => expect(turnstile.widgets).toHaveLength(2));
    expect(turnstile.remove).toHaveBeenCalledWith("w1");
    fireEvent.click(screen.getByRole("button", { name: "Cadastrar" }));
    expect(screen.getByRole("group", { name: "Verificação de segurança" })).toHaveTextContent("Esse campo é obrigatório");
    expect(api.bodiesOf(SIGNUP)).toHaveLength(1);

    await turnstile.solve("token-2", 2);
    fireEvent.click(screen.getByRole("button", { name: "Cadastrar" }));
    await waitFor(() => expect(api.bodiesOf(SIGNUP)).toHaveLength(2));
    expect(api.bodiesOf(SIGNUP)[1]).toMatchObject({ captcha: "token-2" });
  });
});

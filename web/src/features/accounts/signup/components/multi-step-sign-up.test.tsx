import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { stubTurnstile, TURNSTILE_CONFIG } from "@/features/captcha/testing/stub-turnstile";
import { stubApi } from "@/testing/stub-api";
import { buildStation, jsonResponse } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import type { Station } from "@/types/api";

const VALIDATIONS = "POST /api/auth/signup-participant-validations";
const SIGNUP = "POST /api/auth/signup-participant";
const CONFIRMATION_METHOD = "POST /api/auth/confirmation-method";
const TERMS = /Li e aceito os Termos de uso/;
const RJ_CITIES = "GET /api/states/RJ/cities";
const SP_CITIES = "GET /api/states/SP/cities";
const rjCities = () =>
  jsonResponse([
    { name: "Niterói", ibge: "3303302" },
    { name: "Rio de Janeiro", ibge: "3304557" },
  ]);

const publicStation = buildStation({ public: true });
const privateStation = buildStation({ public: false });
const noCpfStation = buildStation({ public: true, no_cpf: true });
const affiliatedStation = buildStation({ public: false, affiliated: true });
const promotionalStation = buildStation({ public: false, promotional: true });

const maskedAffiliate = { id: 501, email: "jo***@ex***.com", celular: "(**) *****-1234", tel: null, isFiliado: true };

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
});

afterEach(() => {
  delete window.turnstile;
});

function type(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

function fillNameAndTel() {
  type("Nome completo", "Ana Souza");
  type("Telefone", "11987654321");
}

function continueButton() {
  return screen.getByRole("button", { name: "Continuar" });
}

async function openSignUp(station: Station, path = "/cadastrar") {
  const rendered = renderApp({ path, station });
  await screen.findByRole("checkbox", { name: TERMS });
  return rendered;
}

function participantAnswer(email: string | null = "ana@exemplo.com") {
  return () =>
    jsonResponse({ user: { id: 42, name: "", email, active: 0 }, confirmation: { sent: true, job_id: null, resend_in: 60 } }, 201);
}

describe("multi-step sign-up, step 0", () => {
  it.each<[string, Station, string[], string[]]>([
    ["public", publicStation, ["E-mail", "Nome completo", "Telefone"], ["CPF"]],
    ["non-public", privateStation, ["E-mail", "CPF", "Nome completo", "Telefone"], []],
    ["no-CPF", noCpfStation, ["E-mail", "Nome completo", "Telefone"], ["CPF"]],
    ["affiliated", affiliatedStation, ["CPF"], ["E-mail", "Nome completo", "Telefone"]],
  ])("asks a %s station for its identifiers", async (_kind, station, shown, hidden) => {
    stubApi();
    await openSignUp(station);

    expect(screen.getByRole("heading", { name: "Cadastre-se" })).toBeInTheDocument();
    for (const label of shown) expect(screen.getByLabelText(label)).toBeInTheDocument();
    for (const label of hidden) expect(screen.queryByLabelText(label)).not.toBeInTheDocument();
  });

  it("keeps Continuar disabled until the terms are accepted and the identifiers filled", async () => {
    stubApi();
    await openSignUp(privateStation);

    expect(continueButton()).toBeDisabled();
    type("E-mail", "ana@exemplo.com");
    expect(continueButton()).toBeDisabled();
    fireEvent.click(screen.getByRole("checkbox", { name: TERMS }));
    expect(continueButton()).toBeDisabled();
    type("CPF", "52998224725");
    expect(continueButton()).toBeEnabled();
  });

  it("needs name and phone on a no-CPF station", async () => {
    stubApi();
    await openSignUp(noCpfStation);
    fireEvent.click(screen.getByRole("checkbox", { name: TERMS }));
    type("E-mail", "ana@exemplo.com");
    type("Nome completo", "Ana Souza");
    expect(continueButton()).toBeDisabled();
    type("Telefone", "11987654321");
    expect(continueButton()).toBeEnabled();
  });

  it("shows the validators' messages", async () => {
    const api = stubApi();
    await openSignUp(privateStation);
    fireEvent.click(screen.getByRole("checkbox", { name: TERMS }));
    type("E-mail", "ana@");
    type("CPF", "12345678900");

    fireEvent.click(continueButton());

    expect(screen.getByText("Email inválido")).toBeInTheDocument();
    expect(screen.getByText("CPF inválido")).toBeInTheDocument();
    expect(api.bodiesOf(VALIDATIONS)).toHaveLength(0);
  });

  it("opens the terms and the privacy policy in popups", async () => {
    stubApi();
    await openSignUp(publicStation);

    fireEvent.click(screen.getByRole("button", { name: "Termos de uso" }));
    const terms = screen.getByRole("dialog", { name: "Termos de uso" });
    expect(terms).toHaveTextContent("maior de 18 anos");
    expect(screen.getByRole("link", { name: "Ler os termos completos" })).toHaveAttribute("href", "/termos-de-uso");
    fireEvent.click(screen.getByRole("button", { name: "Fechar" }));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();

    fireEvent.click(screen.getByRole("button", { name: "Política de privacidade" }));
    expect(screen.getByRole("link", { name: "Ler a política completa" })).toHaveAttribute(
      "href",
      "/politica-de-privacidade",
    );
    expect(screen.getByRole("checkbox", { name: TERMS })).not.toBeChecked();
  });

  it("shows the server's message for an e-mail that already has an account, and stays", async () => {
    stubApi({ [VALIDATIONS]: () => jsonResponse({ messages: ["Este e-mail já está cadastrado."] }, 422) });
    await openSignUp(publicStation);
    type("E-mail", "ana@exemplo.com");
    fillNameAndTel();
    fireEvent.click(screen.getByRole("checkbox", { name: TERMS }));

    fireEvent.click(continueButton());

    expect(await screen.findByText("Este e-mail já está cadastrado.")).toBeInTheDocument();
    expect(screen.getByLabelText("E-mail")).toBeInTheDocument();
  });
});

describe("multi-step sign-up, steps 1 and 2", () => {
  it("checks the e-mail, takes the password and goes to /confirmacao/{email}", async () => {
    const api = stubApi({
      [VALIDATIONS]: () =>
        jsonResponse({ email: "ana@exemplo.com", celular: null, isFiliado: false, id: null, tel: null }),
      [SIGNUP]: participantAnswer(),
    });
    const { page } = await openSignUp(publicStation);
    type("E-mail", "  Ana@Exemplo.com ");
    fireEvent.click(screen.getByRole("checkbox", { name: TERMS }));
    fireEvent.click(continueButton());
    expect(screen.getByLabelText("Nome completo")).toHaveAccessibleDescription("Esse campo é obrigatório");
    expect(screen.getByLabelText("Telefone")).toHaveAccessibleDescription("Esse campo é obrigatório");
    expect(api.bodiesOf(VALIDATIONS)).toHaveLength(0);
    type("Nome completo", " Ana Souza ");
    type("Telefone", "11987654321");
    fireEvent.click(continueButton());

    expect(await screen.findByRole("heading", { name: "Crie a sua senha" })).toBeInTheDocument();
    expect(api.bodiesOf(VALIDATIONS)).toEqual([
      { station_id: 7, email: "ana@exemplo.com", name: "Ana Souza", tel: "11987654321" },
    ]);

    type("Senha", "fraca");
    type("Confirme a senha", "outra");
    fireEvent.click(screen.getByRole("button", { name: "Cadastrar" }));
    expect(
      screen.getByText("Senha precisa ter: uma letra maiúscula, uma letra minúscula, um número e tamanho entre 8 - 20."),
    ).toBeInTheDocument();
    expect(screen.getByText("As senhas não conferem.")).toBeInTheDocument();

    type("Senha", "Segura123");
    type("Confirme a senha", "Segura123");
    fireEvent.click(screen.getByRole("button", { name: "Cadastrar" }));

    await waitFor(() => expect(page.location.pathname).toBe("/confirmacao/ana%40exemplo.com"));
    expect(within(screen.getByRole("region", { name: "Notificações" })).getByText("Cadastro realizado com sucesso")).toBeInTheDocument();
    expect(api.bodiesOf(SIGNUP)).toEqual([
      {
        email: "ana@exemplo.com",
        cpf: null,
        name: "Ana Souza",
        tel: "11987654321",
        birthday: null,
        state: null,
        city: null,
        password: "Segura123",
        password_confirmation: "Segura123",
        station_id: 7,
        establishment_id: 3,
      },
    ]);
  });

  it("sends a no-CPF sign-up with cpf null, its name and phone", async () => {
    const api = stubApi({
      [VALIDATIONS]: () =>
        jsonResponse({ email: "ana@exemplo.com", celular: null, isFiliado: false, id: null, tel: "11987654321" }),
      [SIGNUP]: participantAnswer(),
    });
    const { page } = await openSignUp(noCpfStation);
    type("Nome completo", " Ana Souza ");
    type("E-mail", "ana@exemplo.com");
    type("Telefone", "11987654321");
    fireEvent.click(screen.getByRole("checkbox", { name: TERMS }));
    fireEvent.click(continueButton());
    await screen.findByRole("heading", { name: "Crie a sua senha" });
    type("Senha", "Segura123");
    type("Confirme a senha", "Segura123");
    fireEvent.click(screen.getByRole("button", { name: "Cadastrar" }));

    await waitFor(() => expect(page.location.pathname).toMatch(/^\/confirmacao\//));
    expect(api.bodiesOf(VALIDATIONS)).toEqual([
      { station_id: 7, email: "ana@exemplo.com", name: "Ana Souza", tel: "11987654321" },
    ]);
    expect(api.bodiesOf(SIGNUP)[0]).toMatchObject({ cpf: null, name: "Ana Souza", tel: "11987654321", station_id: 7 });
  });

  it("takes an affiliated person from the CPF to the masked e-mail and sends the code there", async () => {
    const api = stubApi({
      [VALIDATIONS]: () => jsonResponse(maskedAffiliate),
      [SIGNUP]: participantAnswer("jo***@ex***.com"),
      [CONFIRMATION_METHOD]: () => jsonResponse({ message: "E-mail enviado com sucesso", resend_in: 60 }),
    });
    const { page } = await openSignUp(affiliatedStation);
    expect(screen.getByText("Etapa 1 de 3")).toBeInTheDocument();
    type("CPF", "52998224725");
    fireEvent.click(screen.getByRole("checkbox", { name: TERMS }));
    fireEvent.click(continueButton());

    await screen.findByRole("heading", { name: "Crie a sua senha" });
    expect(api.bodiesOf(VALIDATIONS)).toEqual([{ station_id: 7, cpf: "52998224725" }]);
    type("Senha", "Segura123");
    type("Confirme a senha", "Segura123");
    fireEvent.click(screen.getByRole("button", { name: "Cadastrar" }));

    expect(await screen.findByRole("heading", { name: "Confirme a sua identidade" })).toBeInTheDocument();
    expect(api.bodiesOf(SIGNUP)[0]).toMatchObject({ email: null, cpf: "52998224725" });
    expect(screen.getByRole("radio", { name: "E-mail: jo***@ex***.com" })).toBeChecked();

    fireEvent.click(screen.getByRole("button", { name: "Enviar código" }));

    await waitFor(() => expect(page.location.pathname).toBe("/confirmacao/jo***%40ex***.com"));
    expect(page.location.state).toEqual({ userId: 42 });
    expect(api.bodiesOf(CONFIRMATION_METHOD)).toEqual([
      { station_id: 7, user_id: 42, type: "email", email: "jo***@ex***.com", tel: null, id: 501 },
    ]);
  });

  it("opens the code step directly when the login screen hands over an account awaiting activation", async () => {
    const api = stubApi({
      [CONFIRMATION_METHOD]: () => jsonResponse({ message: "E-mail enviado com sucesso", resend_in: 60 }),
    });
    const { page } = renderApp({ path: "/", station: buildStation({ signup_flow: "simple" }) });
    const affiliate = { id: 77, email: "ma***@fi***.example", celular: null, tel: "(**) ****-1234", isFiliado: false };

    await act(() => page.navigate("/cadastrar", { state: { stepForm: 2, affiliate } }));

    expect(await screen.findByRole("heading", { name: "Confirme a sua identidade" })).toBeInTheDocument();
    expect(screen.getByText("Etapa 3 de 3")).toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Enviar código" }));
    await waitFor(() => expect(page.location.pathname).toBe("/confirmacao/ma***%40fi***.example"));
    expect(page.location.state).toEqual({ userId: 77 });
    expect(api.bodiesOf(CONFIRMATION_METHOD)[0]).toEqual({
      station_id: 7,
      user_id: 77,
      type: "email",
      email: "ma***@fi***.example",
      tel: "(**) ****-1234",
      id: 77,
    });
  });

  it("points to the support phone when the account has no e-mail for the code", async () => {
    stubApi();
    const { page } = renderApp({ path: "/", station: affiliatedStation });
    await act(() => page.navigate("/cadastrar", {
      state: { stepForm: 2, affiliate: { id: 77, email: null, celular: null, tel: null, isFiliado: true } },
    }));

    expect(await screen.findByText(/Não encontramos um e-mail/)).toHaveTextContent(
      "Não encontramos um e-mail no seu cadastro para enviar o código de verificação. Entre em contato com o suporte pelo telefone (11) 4000-1234.",
    );
    expect(screen.queryByRole("button", { name: "Enviar código" })).not.toBeInTheDocument();
  });

  it("keeps the invite heading on step 0 and sends member_get_member", async () => {
    const api = stubApi({
      "POST /api/validate-mgm-code/ZZ99-U3-E7": () =>
        jsonResponse({ valid: true, action: { id: 9 }, points_invited: 50, points_inviter: 100 }),
      [VALIDATIONS]: () => jsonResponse({ email: "ana@exemplo.com", celular: null, isFiliado: false, id: null, tel: null }),
      [SIGNUP]: participantAnswer(),
    });
    renderApp({ path: "/cadastrar/ZZ99-U3-E7", station: publicStation });

    expect(await screen.findByRole("heading", { name: "Cadastre-se agora e ganhe 50 pontos" })).toBeInTheDocument();
    type("E-mail", "ana@exemplo.com");
    fillNameAndTel();
    fireEvent.click(screen.getByRole("checkbox", { name: TERMS }));
    fireEvent.click(continueButton());
    await screen.findByRole("heading", { name: "Crie a sua senha" });
    type("Senha", "Segura123");
    type("Confirme a senha", "Segura123");
    fireEvent.click(screen.getByRole("button", { name: "Cadastrar" }));

    await waitFor(() => expect(api.bodiesOf(SIGNUP)).toHaveLength(1));
    expect(api.bodiesOf(SIGNUP)[0]).toMatchObject({ member_get_member: { action_id: 9, inviter_id: 3, code: "ZZ99-U3-E7" } });
  });
});

describe("multi-step sign-up, promotional variant", () => {
  /** Fills step 0; the city is chosen from RJ's list, which the test's stub must answer. */
  async function fillPromotional() {
    type("Nome completo", "Ana Souza");
    type("E-mail", "ana@exemplo.com");
    type("CPF", "52998224725");
    type("Telefone", "11987654321");
    type("Data de nascimento", "05031990");
    fireEvent.change(screen.getByLabelText("Estado"), { target: { value: "RJ" } });
    await screen.findByRole("option", { name: "Niterói" });
    type("Cidade", "Niterói");
    type("Senha", "Segura123");
    type("Confirme a senha", "Segura123");
  }

  /** What the page's live regions say now. */
  function statusTexts() {
    return screen.getAllByRole("status").map((region) => region.textContent);
  }

  function acceptAll() {
    fireEvent.click(screen.getByRole("checkbox", { name: TERMS }));
    fireEvent.click(screen.getByRole("checkbox", { name: /requisitos de viagem/ }));
    fireEvent.click(screen.getByRole("checkbox", { name: "Li e aceito o regulamento da promoção." }));
  }

  it("offers the chosen state's cities once they load, and another state's city is chosen again", async () => {
    let answerRj: (response: Response) => void = () => undefined;
    const api = stubApi({
      [RJ_CITIES]: () => new Promise<Response>((resolve) => (answerRj = resolve)),
      [SP_CITIES]: () => jsonResponse([{ name: "Campinas", ibge: "3509502" }, { name: "São Paulo", ibge: "3550308" }]),
    });
    await openSignUp(promotionalStation);

    const noState = screen.getByRole("combobox", { name: "Cidade" });
    expect(noState).toBeDisabled();
    expect(api.callsTo(RJ_CITIES)).toHaveLength(0);

    fireEvent.change(screen.getByLabelText("Estado"), { target: { value: "RJ" } });
    await waitFor(() => expect(api.callsTo(RJ_CITIES)).toHaveLength(1));
    expect(screen.getByRole("combobox", { name: "Cidade" })).toBeDisabled();
    expect(screen.getByRole("combobox", { name: "Cidade" })).toHaveAttribute("aria-busy", "true");
    expect(statusTexts()).toContain("Carregando as cidades...");

    answerRj(rjCities());
    await screen.findByRole("option", { name: "Niterói" });
    const city = screen.getByRole("combobox", { name: "Cidade" });
    expect(city).toBeEnabled();
    expect(city).not.toHaveAttribute("aria-busy");
    expect(screen.getAllByRole("option").map((option) => option.textContent)).toEqual(
      expect.arrayContaining(["Selecione", "Niterói", "Rio de Janeiro"]),
    );
    type("Cidade", "Niterói");
    expect(city).toHaveValue("Niterói");

    // Another state: its own list, and the city is chosen again.
    fireEvent.change(screen.getByLabelText("Estado"), { target: { value: "SP" } });
    await screen.findByRole("option", { name: "Campinas" });
    expect(screen.getByRole("combobox", { name: "Cidade" })).toHaveValue("");
    expect(screen.queryByRole("option", { name: "Niterói" })).not.toBeInTheDocument();

    // Back to RJ: its list is not asked again.
    fireEvent.change(screen.getByLabelText("Estado"), { target: { value: "RJ" } });
    await screen.findByRole("option", { name: "Niterói" });
    expect(api.callsTo(RJ_CITIES)).toHaveLength(1);
  });

  it.each([
    ["the lookup is down (503)", () => jsonResponse({ error: "Não foi possível carregar as cidades agora. Tente novamente em alguns minutos." }, 503)],
    ["no answer at all", () => Promise.reject(new TypeError("Failed to fetch"))],
  ])("lets the city be typed when %s, so the sign-up goes on", async (_case, answer) => {
    const api = stubApi({
      [RJ_CITIES]: answer,
      [VALIDATIONS]: () => jsonResponse({ email: "ana@exemplo.com", celular: null, isFiliado: false, id: null, tel: null }),
      [SIGNUP]: participantAnswer(),
    });
    const { page } = await openSignUp(promotionalStation);
    type("Nome completo", "Ana Souza");
    type("E-mail", "ana@exemplo.com");
    type("CPF", "52998224725");
    type("Telefone", "11987654321");
    type("Data de nascimento", "05031990");
    fireEvent.change(screen.getByLabelText("Estado"), { target: { value: "RJ" } });

    // The field turns into a textbox once the lookup has failed: a loaded machine takes longer.
    const typed = await screen.findByRole("textbox", { name: "Cidade" }, { timeout: 10_000 });
    expect(statusTexts()).toContain("Não foi possível carregar a lista de cidades. Digite o nome da sua cidade.");
    expect(screen.queryByText("Erro")).not.toBeInTheDocument();
    fireEvent.change(typed, { target: { value: "  Paraty " } });
    type("Senha", "Segura123");
    type("Confirme a senha", "Segura123");
    acceptAll();
    fireEvent.click(screen.getByRole("button", { name: "Cadastrar" }));

    await waitFor(() => expect(page.location.pathname).toBe("/confirmacao/ana%40exemplo.com"));
    expect(api.bodiesOf(SIGNUP)[0]).toMatchObject({ state: "RJ", city: "Paraty" });
    expect(api.callsTo(RJ_CITIES)).toHaveLength(1);
  });

  it("asks everything at once and needs the two extra checkboxes", async () => {
    stubApi({ [RJ_CITIES]: rjCities });
    await openSignUp(promotionalStation);

    for (const label of ["Nome completo", "E-mail", "CPF", "Telefone", "Data de nascimento", "Estado", "Cidade", "Senha", "Confirme a senha"]) {
      expect(screen.getByLabelText(label)).toBeInTheDocument();
    }
    await fillPromotional();
    const submit = screen.getByRole("button", { name: "Cadastrar" });
    fireEvent.click(screen.getByRole("checkbox", { name: TERMS }));
    expect(submit).toBeDisabled();
    fireEvent.click(screen.getByRole("checkbox", { name: /requisitos de viagem/ }));
    expect(submit).toBeDisabled();
    fireEvent.click(screen.getByRole("checkbox", { name: "Li e aceito o regulamento da promoção." }));
    expect(submit).toBeEnabled();
  });

  it("checks, then signs up with birthday, state, city and captcha in one go", async () => {
    const api = stubApi({
      [RJ_CITIES]: rjCities,
      [VALIDATIONS]: () => jsonResponse({ email: "ana@exemplo.com", celular: null, isFiliado: false, id: null, tel: null }),
      [SIGNUP]: participantAnswer(),
    });
    const { page } = await openSignUp(promotionalStation);
    await fillPromotional();
    fireEvent.click(screen.getByRole("checkbox", { name: TERMS }));
    fireEvent.click(screen.getByRole("checkbox", { name: /requisitos de viagem/ }));
    fireEvent.click(screen.getByRole("checkbox", { name: "Li e aceito o regulamento da promoção." }));

    fireEvent.click(screen.getByRole("button", { name: "Cadastrar" }));

    await waitFor(() => expect(page.location.pathname).toBe("/confirmacao/ana%40exemplo.com"));
    expect(api.bodiesOf(SIGNUP)).toEqual([
      {
        email: "ana@exemplo.com",
        cpf: "52998224725",
        name: "Ana Souza",
        tel: "11987654321",
        birthday: "1990-03-05 00:00:00",
        state: "RJ",
        city: "Niterói",
        password: "Segura123",
        password_confirmation: "Segura123",
        station_id: 7,
        establishment_id: 3,
        captcha: "off",
      },
    ]);
  });

  it("asks for a fresh captcha after a refused sign-up (a token works once)", async () => {
    const turnstile = stubTurnstile();
    let refusals = 1;
    const api = stubApi(
      {
        [RJ_CITIES]: rjCities,
        [VALIDATIONS]: () => jsonResponse({ email: "ana@exemplo.com", celular: null, isFiliado: false, id: null, tel: null }),
        [SIGNUP]: () =>
          refusals-- > 0 ? jsonResponse({ error: "Captcha inválido" }, 422) : participantAnswer()(),
      },
      TURNSTILE_CONFIG,
    );
    const { page } = await openSignUp(promotionalStation);
    await fillPromotional();
    acceptAll();
    await turnstile.solve("token-1", 1);
    fireEvent.click(screen.getByRole("button", { name: "Cadastrar" }));
    await waitFor(() => expect(api.bodiesOf(SIGNUP)).toHaveLength(1));

    await waitFor(() => expect(turnstile.widgets).toHaveLength(2));
    await waitFor(() => expect(screen.getByRole("button", { name: "Cadastrar" })).toBeEnabled());
    fireEvent.click(screen.getByRole("button", { name: "Cadastrar" }));
    expect(screen.getByRole("group", { name: "Verificação de segurança" })).toHaveTextContent("Esse campo é obrigatório");

    await turnstile.solve("token-2", 2);
    fireEvent.click(screen.getByRole("button", { name: "Cadastrar" }));
    await waitFor(() => expect(page.location.pathname).toBe("/confirmacao/ana%40exemplo.com"));
    expect(api.bodiesOf(SIGNUP).map((body) => (body as { captcha: string }).captcha)).toEqual(["token-1", "token-2"]);
  });

  it("refuses a minor", async () => {
    const api = stubApi({ [RJ_CITIES]: rjCities });
    await openSignUp(promotionalStation);
    await fillPromotional();
    type("Data de nascimento", `0101${new Date().getFullYear() - 17}`);
    fireEvent.click(screen.getByRole("checkbox", { name: TERMS }));
    fireEvent.click(screen.getByRole("checkbox", { name: /requisitos de viagem/ }));
    fireEvent.click(screen.getByRole("checkbox", { name: "Li e aceito o regulamento da promoção." }));

    fireEvent.click(screen.getByRole("button", { name: "Cadastrar" }));

    expect(screen.getByText("É necessário ser maior de 18 anos.")).toBeInTheDocument();
    expect(api.bodiesOf(VALIDATIONS)).toHaveLength(0);
  });
});

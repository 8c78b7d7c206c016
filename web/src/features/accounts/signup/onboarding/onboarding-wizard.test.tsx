import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { CEP_LOOKUP, byCep, cepUnknown, paulista } from "@/testing/cep-lookup";
import { stubApi } from "@/testing/stub-api";
import { getStoredSession } from "@/lib/session-store";
import { buildStation, buildUser, jsonResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import type { User } from "@/types/api";

const UPDATE = "PUT /api/auth/update-participant/1";
const IMAGE = "PUT /api/update-user-profile-image/1";

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
});

function type(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

function imageFile(bytes: number, name = "foto.png") {
  return new File([new Uint8Array(bytes)], name, { type: "image/png" });
}

async function goToPersonalData() {
  fireEvent.click(await screen.findByRole("button", { name: "Começar" }));
  fireEvent.click(screen.getByRole("button", { name: "Pular" }));
  await screen.findByRole("heading", { name: "Seus dados" });
}

/** A member in onboarding whose required data is all there. */
const FILLED_IN: Partial<User> = {
  cpf: "52998224725",
  tel: "11987654321",
  birthday: "1990-03-05",
  state: "SP",
  city: "Santos",
  briefingDone: false,
};

function updateAnswer(overrides: Partial<User> = {}) {
  return () => jsonResponse({ message: "Cadastro atualizado com sucesso", user: buildUser(overrides) });
}

describe("onboarding wizard (/signup)", () => {
  it("sends visitors to /login, and visitors with an invite to its sign-up", async () => {
    stubApi();
    const { page } = renderApp({ path: "/signup" });
    await waitFor(() => expect(page.location.pathname).toBe("/login"));

    await act(() => page.navigate("/signup/AB12-U3-E7"));
    await waitFor(() => expect(page.location.pathname).toBe("/cadastrar/AB12-U3-E7"));
  });

  it("welcomes the member, then offers an optional photo", async () => {
    stubApi();
    signIn({ name: "Maria Silva", briefingDone: false });
    renderApp({ path: "/signup" });

    expect(await screen.findByRole("heading", { name: "Boas-vindas!" })).toBeInTheDocument();
    expect(screen.getByText(/Olá, Maria!/)).toBeInTheDocument();
    expect(screen.getByText("Etapa 1 de 4")).toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Começar" }));

    expect(screen.getByRole("heading", { name: "Sua foto" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Salvar foto" })).toBeDisabled();
    fireEvent.click(screen.getByRole("button", { name: "Pular" }));
    expect(screen.getByRole("heading", { name: "Seus dados" })).toBeInTheDocument();
  });

  it("refuses a photo over 3 MB and uploads one within it", async () => {
    const api = stubApi({
      [IMAGE]: () => jsonResponse({ message: "Você atualizou a seu perfil com sucesso", user: buildUser({ image: "/f.png" }) }),
    });
    signIn({ briefingDone: false });
    renderApp({ path: "/signup" });
    fireEvent.click(await screen.findByRole("button", { name: "Começar" }));

    fireEvent.change(screen.getByLabelText("Escolher foto"), { target: { files: [imageFile(3 * 1024 * 1024 + 1)] } });
    expect(await screen.findByText("Erro: Imagem maior que 3MB")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Salvar foto" })).toBeDisabled();

    fireEvent.change(screen.getByLabelText("Escolher foto"), { target: { files: [imageFile(2000)] } });
    expect(await screen.findByRole("img", { name: "Sua nova foto" })).toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Salvar foto" }));

    expect(await screen.findByRole("heading", { name: "Seus dados" })).toBeInTheDocument();
    const [body] = api.bodiesOf(IMAGE) as Array<{ imageType: string; base64: string }>;
    expect(body?.imageType).toBe("image/png");
    expect(body?.base64).toMatch(/^data:image\/png;base64,/);
    expect(getStoredSession()?.user.image).toBe("/f.png");
  });

  it("fills the address from the CEP", async () => {
    stubApi({
      [CEP_LOOKUP]: byCep({ "01310100": paulista }),
    });
    signIn({ briefingDone: false });
    renderApp({ path: "/signup" });
    await goToPersonalData();

    type("CEP", "01310100");

    expect(screen.getByLabelText("CEP")).toHaveValue("01.310-100");
    await waitFor(() => expect(screen.getByLabelText("Endereço")).toHaveValue("Avenida Paulista"));
    expect(screen.getByLabelText("Bairro")).toHaveValue("Bela Vista");
    expect(screen.getByLabelText("Cidade")).toHaveValue("São Paulo");
    expect(screen.getByLabelText("Estado")).toHaveValue("SP");
  });

  it("sends a started address whole, and needs its CEP, street and number", async () => {
    const api = stubApi({
      [CEP_LOOKUP]: byCep({ "01310100": paulista }),
      [UPDATE]: updateAnswer(),
    });
    signIn({ cpf: "52998224725", tel: "11987654321", birthday: "1990-03-05", state: "SP", city: "Santos", briefingDone: false });
    renderApp({ path: "/signup" });
    await goToPersonalData();

    type("Complemento", "Apto 12");
    fireEvent.click(screen.getByRole("button", { name: "Continuar" }));
    expect(screen.getByLabelText("CEP")).toHaveAccessibleDescription("Esse campo é obrigatório");
    expect(screen.getByLabelText("Número")).toHaveAccessibleDescription("Esse campo é obrigatório");

    type("CEP", "01310100");
    await waitFor(() => expect(screen.getByLabelText("Endereço")).toHaveValue("Avenida Paulista"));
    type("Número", "1000");
    fireEvent.click(screen.getByRole("button", { name: "Continuar" }));

    await screen.findByRole("heading", { name: "Tudo pronto!" });
    expect(api.bodiesOf(UPDATE)[0]).toMatchObject({
      city: "São Paulo",
      state: "SP",
      zipcode: "01310100",
      address_line_1: "Avenida Paulista",
      address_number: "1000",
      address_line_2: "Apto 12",
      neighborhood: "Bela Vista",
    });
  });

  it("puts 'CEP inválido' in city and street for an unknown CEP", async () => {
    stubApi({ [CEP_LOOKUP]: byCep({ "99999999": cepUnknown }) });
    signIn({ briefingDone: false });
    renderApp({ path: "/signup" });
    await goToPersonalData();

    type("CEP", "99999999");

    await waitFor(() => expect(screen.getByLabelText("Cidade")).toHaveValue("CEP inválido"));
    expect(screen.getByLabelText("Endereço")).toHaveValue("CEP inválido");
  });

  it("keeps 'CEP inválido' in street and city an error until real data is typed", async () => {
    const api = stubApi({ [CEP_LOOKUP]: byCep({ "99999999": cepUnknown }), [UPDATE]: updateAnswer() });
    signIn({ cpf: "52998224725", tel: "11987654321", birthday: "1990-03-05", state: "SP", briefingDone: false });
    renderApp({ path: "/signup" });
    await goToPersonalData();
    type("CEP", "99999999");
    await waitFor(() => expect(screen.getByLabelText("Cidade")).toHaveValue("CEP inválido"));
    type("Número", "10");

    fireEvent.click(screen.getByRole("button", { name: "Continuar" }));
    expect(screen.getByLabelText("Endereço")).toHaveAccessibleDescription("CEP inválido");
    expect(screen.getByLabelText("Cidade")).toHaveAccessibleDescription("CEP inválido");
    expect(api.bodiesOf(UPDATE)).toEqual([]);

    type("Endereço", "Rua Nova");
    type("Cidade", "Santos");
    fireEvent.click(screen.getByRole("button", { name: "Continuar" }));
    await screen.findByRole("heading", { name: "Tudo pronto!" });
    expect(api.bodiesOf(UPDATE)[0]).toMatchObject({ address_line_1: "Rua Nova", city: "Santos", zipcode: "99999999" });
  });

  it("applies only the answer for the CEP in the field", async () => {
    let answerFirst: (response: Response) => void = () => undefined;
    stubApi({
      [CEP_LOOKUP]: byCep({
        "01310100": () => new Promise<Response>((resolve) => (answerFirst = resolve)),
        "99999999": cepUnknown,
      }),
    });
    signIn({ briefingDone: false });
    renderApp({ path: "/signup" });
    await goToPersonalData();

    type("CEP", "01310100");
    type("CEP", "99999999");
    await waitFor(() => expect(screen.getByLabelText("Cidade")).toHaveValue("CEP inválido"));
    answerFirst(paulista());

    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.getByLabelText("Cidade")).toHaveValue("CEP inválido");
    expect(screen.getByLabelText("Endereço")).toHaveValue("CEP inválido");
  });

  it("looks a CEP up again after its lookup failed", async () => {
    let failures = 1;
    const api = stubApi({
      [CEP_LOOKUP]: byCep({
        "01310100": () => (failures-- > 0 ? jsonResponse({ error: "Erro interno no servidor" }, 503) : paulista()),
      }),
    });
    signIn({ briefingDone: false });
    renderApp({ path: "/signup" });
    await goToPersonalData();

    type("CEP", "01310100");
    await waitFor(() => expect(screen.getByLabelText("Cidade")).toHaveValue("CEP inválido"));
    type("CEP", "0131010");
    type("CEP", "01310100");

    await waitFor(() => expect(screen.getByLabelText("Cidade")).toHaveValue("São Paulo"));
    expect(api.callsTo(CEP_LOOKUP)).toHaveLength(2);
  });

  it("asks the CPF when missing and e-mail and password when the account has none, and saves", async () => {
    const api = stubApi({ [UPDATE]: updateAnswer({ email: "ana@exemplo.com", briefingDone: false }) });
    signIn({
      name: "Ana Souza",
      email: null,
      has_password: false,
      cpf: null,
      tel: "11987654321",
      birthday: "1990-03-05",
      state: "SP",
      briefingDone: false,
    });
    renderApp({ path: "/signup", station: buildStation({ public: false }) });
    await goToPersonalData();

    expect(screen.getByLabelText("Nome completo")).toHaveValue("Ana Souza");
    expect(screen.getByLabelText("Telefone")).toHaveValue("(11) 98765-4321");
    expect(screen.getByLabelText("Data de nascimento")).toHaveValue("05/03/1990");
    fireEvent.click(screen.getByRole("button", { name: "Continuar" }));
    expect(screen.getByLabelText("CPF")).toHaveAccessibleDescription("Esse campo é obrigatório");
    expect(screen.getByLabelText("E-mail")).toHaveAccessibleDescription("Esse campo é obrigatório");
    expect(screen.getByLabelText("Cidade")).toHaveAccessibleDescription("Esse campo é obrigatório");

    type("CPF", "52998224725");
    type("Cidade", "São Paulo");
    type("E-mail", "Ana@Exemplo.com");
    type("Senha", "Segura123");
    type("Confirme a senha", "Segura12");
    expect(screen.getByText("As senhas não conferem.")).toBeInTheDocument();
    type("Confirme a senha", "Segura123");
    fireEvent.click(screen.getByRole("button", { name: "Continuar" }));

    expect(await screen.findByRole("heading", { name: "Tudo pronto!" })).toBeInTheDocument();
    expect(api.bodiesOf(UPDATE)).toEqual([
      {
        name: "Ana Souza",
        tel: "11987654321",
        birthday: "1990-03-05 00:00:00",
        state: "SP",
        city: "São Paulo",
        cpf: "52998224725",
        email: "ana@exemplo.com",
        password: "Segura123",
        password_confirmation: "Segura123",
      },
    ]);
  });

  it("asks a password of an account with an e-mail but none (simple sign-up), and sends it", async () => {
    const api = stubApi({ [UPDATE]: updateAnswer() });
    signIn({ ...FILLED_IN, has_password: false });
    renderApp({ path: "/signup" });
    await goToPersonalData();

    expect(screen.queryByLabelText("E-mail")).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Continuar" }));
    expect(screen.getByLabelText("Senha")).toHaveAccessibleDescription("Esse campo é obrigatório");
    expect(api.bodiesOf(UPDATE)).toEqual([]);

    type("Senha", "Segura123");
    type("Confirme a senha", "Segura123");
    fireEvent.click(screen.getByRole("button", { name: "Continuar" }));

    await screen.findByRole("heading", { name: "Tudo pronto!" });
    expect(api.bodiesOf(UPDATE)[0]).toMatchObject({ password: "Segura123", password_confirmation: "Segura123" });
    expect(api.bodiesOf(UPDATE)[0]).not.toHaveProperty("email");
  });

  it("asks only the e-mail of an account without one that has a password", async () => {
    const api = stubApi({ [UPDATE]: updateAnswer() });
    signIn({ ...FILLED_IN, email: null });
    renderApp({ path: "/signup" });
    await goToPersonalData();

    expect(screen.queryByLabelText("Senha")).not.toBeInTheDocument();
    type("E-mail", "maria@filia.example");
    fireEvent.click(screen.getByRole("button", { name: "Continuar" }));

    await screen.findByRole("heading", { name: "Tudo pronto!" });
    expect(api.bodiesOf(UPDATE)[0]).toMatchObject({ email: "maria@filia.example" });
    expect(api.bodiesOf(UPDATE)[0]).not.toHaveProperty("password");
  });

  it("lets a public station's member leave the CPF blank", async () => {
    const api = stubApi({ [UPDATE]: updateAnswer() });
    signIn({ cpf: null, tel: "11987654321", birthday: "1990-03-05", state: "SP", city: "Santos", briefingDone: false });
    renderApp({ path: "/signup", station: buildStation({ public: true }) });
    await goToPersonalData();

    type("CPF", "11111111111");
    fireEvent.blur(screen.getByLabelText("CPF"));
    expect(screen.getByText("CPF inválido")).toBeInTheDocument();
    type("CPF", "");
    fireEvent.click(screen.getByRole("button", { name: "Continuar" }));

    await screen.findByRole("heading", { name: "Tudo pronto!" });
    expect(api.bodiesOf(UPDATE)[0]).not.toHaveProperty("cpf");
  });

  it("does not ask CPF, e-mail or password of an account that has them", async () => {
    stubApi();
    signIn({ cpf: "52998224725", email: "maria@filia.example", briefingDone: false });
    renderApp({ path: "/signup" });
    await goToPersonalData();

    expect(screen.queryByLabelText("CPF")).not.toBeInTheDocument();
    expect(screen.queryByLabelText("E-mail")).not.toBeInTheDocument();
    expect(screen.queryByLabelText("Senha")).not.toBeInTheDocument();
  });

  it("finishes the briefing, keeps the stored user and goes to /homepage", async () => {
    const api = stubApi({
      [UPDATE]: (body) =>
        jsonResponse({
          message: "Cadastro atualizado com sucesso",
          user: buildUser({ city: "Santos", briefingDone: (body as { briefingDone?: boolean }).briefingDone === true }),
        }),
    });
    signIn({ cpf: "52998224725", tel: "11987654321", birthday: "1990-03-05", state: "SP", city: "Santos", briefingDone: false });
    const { page } = renderApp({ path: "/signup" });
    await goToPersonalData();
    fireEvent.click(screen.getByRole("button", { name: "Continuar" }));
    await screen.findByRole("heading", { name: "Tudo pronto!" });

    fireEvent.click(screen.getByRole("button", { name: "Ir para o início" }));

    await waitFor(() => expect(page.location.pathname).toBe("/homepage"));
    expect(api.bodiesOf(UPDATE)[1]).toEqual({ briefingDone: true });
    expect(getStoredSession()?.user).toMatchObject({ briefingDone: true, city: "Santos" });
  });
});

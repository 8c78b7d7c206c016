import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { stubTurnstile, TURNSTILE_CONFIG } from "@/features/captcha/testing/stub-turnstile";
import { stubApi } from "@/testing/stub-api";
import { getStoredSession } from "@/lib/session-store";
import { buildUser, jsonResponse } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";

const SIGNUP_ADMIN = "POST /api/auth/signup-admin";

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
});

afterEach(() => {
  delete window.turnstile;
});

function type(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

function imageFile(bytes: number) {
  return new File([new Uint8Array(bytes)], "logo.png", { type: "image/png" });
}

async function goToPersonalData() {
  fireEvent.click(await screen.findByRole("button", { name: "Começar" }));
  expect(screen.getByRole("heading", { name: "Sua foto" })).toBeInTheDocument();
  fireEvent.click(screen.getByRole("button", { name: "Pular" }));
  expect(screen.getByRole("heading", { name: "Seus dados" })).toBeInTheDocument();
}

function fillPersonalData(cnpj = "11222333000181") {
  type("Nome completo", " Carla Lima ");
  type("E-mail", "Carla@Empresa.com.br");
  type("CPF", "52998224725");
  type("Telefone", "1133334444");
  type("Data de nascimento", "10021985");
  type("Senha", "Empresa123");
  type("Confirme a senha", "Empresa123");
  type("CNPJ da empresa", cnpj);
  type("Razão social", "Empresa Lima Ltda");
}

async function goToSiteName() {
  await goToPersonalData();
  fillPersonalData();
  fireEvent.click(screen.getByRole("button", { name: "Continuar" }));
  expect(await screen.findByRole("heading", { name: "Logo da empresa" })).toBeInTheDocument();
  fireEvent.click(screen.getByRole("button", { name: "Pular" }));
  expect(screen.getByRole("heading", { name: "Cor de destaque" })).toBeInTheDocument();
  fireEvent.click(screen.getByRole("button", { name: "Continuar" }));
  expect(screen.getByRole("heading", { name: "Nome do site" })).toBeInTheDocument();
  await waitFor(() => expect(screen.queryByText(/Carregando a verificação/)).not.toBeInTheDocument());
}

describe("company creator wizard (/cadastrar-empresa)", () => {
  it("checks the personal data with the shared validators", async () => {
    stubApi();
    renderApp({ path: "/cadastrar-empresa" });
    await goToPersonalData();

    type("Nome completo", "   ");
    type("Data de nascimento", "31022000");
    type("Senha", "Empresa123");
    type("Confirme a senha", "Empresa12");
    fireEvent.click(screen.getByRole("button", { name: "Continuar" }));

    expect(screen.getByText("O campo não pode conter apenas espaços")).toBeInTheDocument();
    expect(screen.getByText("Data Inválida!")).toBeInTheDocument();
    expect(screen.getByText("As senhas não conferem.")).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Seus dados" })).toBeInTheDocument();
  });

  it("masks the CNPJ and opens the 'CNPJ inválido' dialog for a wrong one", async () => {
    stubApi();
    renderApp({ path: "/cadastrar-empresa" });
    await goToPersonalData();
    fillPersonalData("11222333000182");

    expect(screen.getByLabelText("CNPJ da empresa")).toHaveValue("11.222.333/0001-82");
    fireEvent.click(screen.getByRole("button", { name: "Continuar" }));

    const dialog = screen.getByRole("dialog", { name: "CNPJ inválido" });
    expect(dialog).toHaveTextContent("Verifique o CNPJ informado e tente novamente.");
    fireEvent.click(within(dialog).getByRole("button", { name: "OK" }));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Seus dados" })).toBeInTheDocument();
  });

  it("refuses a logo over 1 MB", async () => {
    stubApi();
    renderApp({ path: "/cadastrar-empresa" });
    await goToPersonalData();
    fillPersonalData();
    fireEvent.click(screen.getByRole("button", { name: "Continuar" }));
    await screen.findByRole("heading", { name: "Logo da empresa" });

    fireEvent.change(screen.getByLabelText("Escolher logo"), { target: { files: [imageFile(1024 * 1024 + 1)] } });

    expect(await screen.findByText("Erro: Imagem maior que 1MB")).toBeInTheDocument();
  });

  it("takes a #RRGGBB colour and lowercases the site name without spaces as typed", async () => {
    stubApi();
    renderApp({ path: "/cadastrar-empresa" });
    await goToPersonalData();
    fillPersonalData();
    fireEvent.click(screen.getByRole("button", { name: "Continuar" }));
    fireEvent.click(await screen.findByRole("button", { name: "Pular" }));

    type("Código da cor", "#12");
    expect(screen.getByText("Cor inválida. Use o formato #RRGGBB.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Continuar" })).toBeDisabled();
    type("Cor de destaque", "#aa3300");
    expect(screen.getByLabelText("Código da cor")).toHaveValue("#AA3300");
    fireEvent.click(screen.getByRole("button", { name: "Continuar" }));

    type("Nome do site", "Minha Loja");
    expect(screen.getByLabelText("Nome do site")).toHaveValue("minhaloja");
    expect(screen.getByText("minhaloja.filia.app")).toBeInTheDocument();
    type("Nome do site", "café");
    fireEvent.click(screen.getByRole("button", { name: "Criar meu site" }));
    expect(screen.getByText("Apenas letras sem acento")).toBeInTheDocument();
  });

  it("creates the company, stores the session and offers the two ways on", async () => {
    const admin = buildUser({ id: 90, type_id: 1, name: "Carla Lima", briefingDone: false });
    const api = stubApi({
      [SIGNUP_ADMIN]: () => jsonResponse({ user: admin, token: "admin-token", station: { id: 12, subdomain: "minhaloja" } }, 201),
    });
    const { page } = renderApp({ path: "/cadastrar-empresa" });
    await goToSiteName();
    type("Nome do programa", "Clube Minha Loja");
    type("Nome do site", "Minha Loja");

    fireEvent.click(screen.getByRole("button", { name: "Criar meu site" }));

    expect(await screen.findByRole("heading", { name: "Seu site está pronto!" })).toBeInTheDocument();
    expect(api.bodiesOf(SIGNUP_ADMIN)).toEqual([
      {
        name: "Carla Lima",
        email: "carla@empresa.com.br",
        password: "Empresa123",
        password_confirmation: "Empresa123",
        cpf: "52998224725",
        tel: "1133334444",
        birthday: "1985-02-10 00:00:00",
        cnpj: "11222333000181",
        full_social_name: "Empresa Lima Ltda",
        prettyName: "Clube Minha Loja",
        subdomain: "minhaloja",
        country: "BR",
        main_brand_image: null,
        main_brand_color: "#0E7C66",
        type: 1,
        captcha: "off",
      },
    ]);
    expect(getStoredSession()).toEqual({ user: admin, token: "admin-token" });

    expect(screen.getByRole("button", { name: "Aprender a usar a plataforma" })).toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Criar conteúdo para os fãs" }));
    await waitFor(() => expect(page.location.pathname).toBe("/homepage"));
  });

  it("lists every message of a refused sign-up", async () => {
    stubApi({
      [SIGNUP_ADMIN]: () =>
        jsonResponse({ messages: ["Este endereço já está em uso.", "Este e-mail já está cadastrado."] }, 422),
    });
    renderApp({ path: "/cadastrar-empresa" });
    await goToSiteName();
    type("Nome do programa", "Clube");
    type("Nome do site", "demo");

    fireEvent.click(screen.getByRole("button", { name: "Criar meu site" }));

    const alert = await screen.findByRole("alert");
    expect(within(alert).getAllByRole("listitem").map((item) => item.textContent)).toEqual([
      "Este endereço já está em uso.",
      "Este e-mail já está cadastrado.",
    ]);
    expect(getStoredSession()).toBeNull();
  });

  it("asks for a fresh captcha after a refused sign-up and does not keep the spent one", async () => {
    const turnstile = stubTurnstile();
    const api = stubApi({ [SIGNUP_ADMIN]: () => jsonResponse({ messages: ["Este endereço já está em uso."] }, 422) }, TURNSTILE_CONFIG);
    renderApp({ path: "/cadastrar-empresa" });
    await goToSiteName();
    type("Nome do programa", "Clube");
    type("Nome do site", "demo");
    await turnstile.solve("token-1", 1);
    fireEvent.click(screen.getByRole("button", { name: "Criar meu site" }));
    await screen.findByRole("alert");

    await waitFor(() => expect(turnstile.widgets).toHaveLength(2));
    fireEvent.click(screen.getByRole("button", { name: "Criar meu site" }));
    expect(screen.getByRole("group", { name: "Verificação de segurança" })).toHaveTextContent("Esse campo é obrigatório");

    // Back and forth: the saved step must not bring the spent token back.
    fireEvent.click(screen.getByRole("button", { name: "Voltar" }));
    fireEvent.click(screen.getByRole("button", { name: "Continuar" }));
    expect(screen.getByLabelText("Nome do site")).toHaveValue("demo");
    fireEvent.click(screen.getByRole("button", { name: "Criar meu site" }));
    expect(screen.getByRole("group", { name: "Verificação de segurança" })).toHaveTextContent("Esse campo é obrigatório");
    expect(api.bodiesOf(SIGNUP_ADMIN)).toHaveLength(1);

    await turnstile.solve("token-2", 3);
    fireEvent.click(screen.getByRole("button", { name: "Criar meu site" }));
    await waitFor(() => expect(api.bodiesOf(SIGNUP_ADMIN)).toHaveLength(2));
    expect(api.bodiesOf(SIGNUP_ADMIN)[1]).toMatchObject({ captcha: "token-2" });
  });

  it("opens the CNPJ dialog and returns to the data when the server refuses the CNPJ", async () => {
    stubApi({ [SIGNUP_ADMIN]: () => jsonResponse({ messages: ["CNPJ inválido"] }, 422) });
    renderApp({ path: "/cadastrar-empresa" });
    await goToSiteName();
    type("Nome do programa", "Clube");
    type("Nome do site", "clube");

    fireEvent.click(screen.getByRole("button", { name: "Criar meu site" }));

    expect(await screen.findByRole("dialog", { name: "CNPJ inválido" })).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Seus dados" })).toBeInTheDocument();
    expect(screen.getByLabelText("CNPJ da empresa")).toHaveValue("11.222.333/0001-81");
  });
});

import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { getStoredSession } from "@/lib/session-store";
import { buildStation, buildUser, buildWalletBalance, jsonResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { stubApi, type ApiHandler } from "@/testing/stub-api";

const PATH = "/homepage/perfil";
const UPDATE = "PUT /api/auth/update-participant/1";
const IMAGE = "PUT /api/update-user-profile-image/1";
const PRE_REGISTRATION = "POST /api/pre-registration-change";
const MEMBER = { name: "Maria Silva Souza", birthday: "1990-05-17", state: "SP", image: "/api/media/users/1/a.jpg" };

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
});

function stub(handlers: Record<string, ApiHandler> = {}) {
  return stubApi({ "GET /api/users-points/1": () => jsonResponse(buildWalletBalance()), ...handlers });
}

const notifications = () => screen.getByRole("region", { name: "Notificações" });

describe("/homepage/perfil", () => {
  it("shows the avatar, first name, birth date, state, the plan card and the account links", async () => {
    signIn(MEMBER);
    stub();
    renderApp({ path: PATH });

    expect(await screen.findByRole("heading", { level: 1, name: "Perfil" })).toBeInTheDocument();
    expect(screen.getByRole("img", { name: "Foto de Maria Silva Souza" })).toHaveAttribute("src", MEMBER.image);
    expect(screen.getByText("Maria")).toBeInTheDocument();
    expect(screen.getByText("17/05/1990")).toBeInTheDocument();
    expect(screen.getByText("São Paulo")).toBeInTheDocument();
    expect(screen.getByText("Você não possui um plano ativo.")).toBeInTheDocument();
    const links = within(screen.getByRole("navigation", { name: "Minha conta" })).getAllByRole("link");
    expect(links.map((link) => link.textContent)).toEqual(["Convites", "Troféus", "Vouchers", "Pedidos", "Extrato", "Assinaturas"]);
    expect(screen.queryByRole("button", { name: "Solicitar alteração cadastral" })).not.toBeInTheDocument();
  });

  it("hides the links where the station turns my_account_access off", async () => {
    signIn(MEMBER);
    stub();
    renderApp({ path: PATH, station: buildStation({ my_account_access: false }) });
    await screen.findByRole("heading", { level: 1, name: "Perfil" });
    expect(screen.queryByRole("navigation", { name: "Minha conta" })).not.toBeInTheDocument();
  });

  it("requires name, state, birthday and a picture before saving", async () => {
    signIn({ ...MEMBER, image: null, state: null, birthday: null });
    const api = stub();
    renderApp({ path: PATH });
    fireEvent.click(await screen.findByRole("button", { name: "Editar perfil" }));
    fireEvent.change(screen.getByLabelText("Nome"), { target: { value: "  " } });
    fireEvent.click(screen.getByRole("button", { name: "Salvar" }));

    expect(await screen.findByText("O campo não pode conter apenas espaços")).toBeInTheDocument();
    expect(screen.getAllByText("Esse campo é obrigatório")).toHaveLength(2);
    expect(api.callsTo(UPDATE)).toHaveLength(0);
    fireEvent.change(screen.getByLabelText("Nome"), { target: { value: "Maria" } });
    fireEvent.change(screen.getByLabelText("Estado"), { target: { value: "RJ" } });
    fireEvent.change(screen.getByLabelText("Data de nascimento"), { target: { value: "17/05/1990" } });
    fireEvent.click(screen.getByRole("button", { name: "Salvar" }));
    // The picture is still missing.
    expect(await screen.findByRole("alert")).toHaveTextContent("Esse campo é obrigatório");
    expect(api.callsTo(UPDATE)).toHaveLength(0);
  });

  it("refuses a picture over 1 MB with the spec's text", async () => {
    signIn(MEMBER);
    stub();
    renderApp({ path: PATH });
    fireEvent.click(await screen.findByRole("button", { name: "Editar perfil" }));
    const big = new File([new Uint8Array(1024 * 1024 + 1)], "foto.jpg", { type: "image/jpeg" });
    fireEvent.change(screen.getByLabelText("Alterar foto"), { target: { files: [big] } });
    expect(await screen.findByText("Erro: Imagem maior que 1MB")).toBeInTheDocument();
  });

  it("saves the data and shows the server's message", async () => {
    signIn(MEMBER);
    const api = stub({
      [UPDATE]: () =>
        jsonResponse({ message: "Cadastro atualizado com sucesso", user: buildUser({ ...MEMBER, name: "Ana Souza", state: "RJ" }) }),
    });
    renderApp({ path: PATH });
    fireEvent.click(await screen.findByRole("button", { name: "Editar perfil" }));
    fireEvent.change(screen.getByLabelText("Nome"), { target: { value: "Ana Souza" } });
    fireEvent.change(screen.getByLabelText("Estado"), { target: { value: "RJ" } });
    fireEvent.click(screen.getByRole("button", { name: "Salvar" }));

    expect(await within(notifications()).findByText("Cadastro atualizado com sucesso")).toBeInTheDocument();
    expect(api.bodySentTo(UPDATE)).toEqual({ name: "Ana Souza", state: "RJ", birthday: "1990-05-17 00:00:00" });
    expect(api.callsTo(IMAGE)).toHaveLength(0);
    expect(await screen.findByRole("button", { name: "Editar perfil" })).toBeInTheDocument();
    // The saved data stays: the session check's start-up answer never writes the old user back.
    await waitFor(() => expect(getStoredSession()?.user.name).toBe("Ana Souza"));
    expect(getStoredSession()?.user.state).toBe("RJ");
  });

  it("sends a pre-registration change request where the station takes them", async () => {
    signIn(MEMBER);
    const api = stub({ [PRE_REGISTRATION]: () => jsonResponse({ message: "Solicitação enviada com sucesso." }, 201) });
    renderApp({ path: PATH, station: buildStation({ pre_registration_access: true }) });
    fireEvent.click(await screen.findByRole("button", { name: "Solicitar alteração cadastral" }));
    const dialog = screen.getByRole("dialog", { name: "Solicitar alteração cadastral" });
    const situation = within(dialog).getByLabelText("Situação");
    expect(within(situation).getAllByRole("option").map((option) => option.textContent)).toEqual([
      "Selecione",
      "Ativo",
      "Aposentado",
      "Inativo",
      "Pensionista",
    ]);
    fireEvent.change(within(dialog).getByLabelText("E-mail"), { target: { value: "sem-arroba" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Enviar" }));
    expect(await within(dialog).findByText("Email inválido")).toBeInTheDocument();
    expect(api.callsTo(PRE_REGISTRATION)).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText("E-mail"), { target: { value: "nova@example.com" } });
    fireEvent.change(situation, { target: { value: "Aposentado" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Enviar" }));
    expect(await within(notifications()).findByText("Solicitação enviada com sucesso.")).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(api.bodySentTo(PRE_REGISTRATION)).toEqual({ email: "nova@example.com", situacao: "Aposentado" });
  });
});

import { fireEvent, screen, waitFor } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { buildWalletBalance, jsonResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { stubApi } from "@/testing/stub-api";

const SEND = "POST /api/enviar-suporte";
const BALANCE = "GET /api/users-points/1";

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
});

function type(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

describe("support form", () => {
  it("checks each field with the spec's texts before sending", async () => {
    const api = stubApi();
    renderApp({ path: "/suporte" });
    expect(await screen.findByRole("heading", { level: 1, name: "Fale conosco" })).toBeInTheDocument();
    type("E-mail", "ana@");
    type("Telefone", "1234");
    type("Assunto", "a".repeat(201));
    type("Mensagem", "b".repeat(601));
    fireEvent.click(screen.getByRole("button", { name: "Enviar" }));

    expect(screen.getAllByText("Esse campo é obrigatório")).not.toHaveLength(0);
    expect(screen.getByText("Email inválido")).toBeInTheDocument();
    expect(screen.getByText("Telefone inválido")).toBeInTheDocument();
    expect(screen.getByText("Esse campo deve possuir no máximo 200 caracteres")).toBeInTheDocument();
    expect(screen.getByText("Esse campo deve possuir no máximo 600 caracteres")).toBeInTheDocument();
    expect(screen.getByLabelText("Nome")).toHaveAttribute("aria-invalid", "true");
    expect(api.callsTo(SEND)).toHaveLength(0);
  });

  it("sends a visitor's message with the mask stripped, then goes to / with the toast", async () => {
    const api = stubApi({ [SEND]: () => jsonResponse({ id: 5, message: "Operação realizada com sucesso" }, 201) });
    const { page } = renderApp({ path: "/suporte" });
    await screen.findByLabelText("Nome");
    type("Nome", " Ana Souza ");
    type("E-mail", "ana@example.com");
    type("Telefone", "11987654321");
    expect(screen.getByLabelText("Telefone")).toHaveValue("(11) 98765-4321");
    type("Assunto", "Meu cartão");
    type("Mensagem", "Não recebi meu cartão.");
    expect(screen.getByText("22/600")).toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Enviar" }));

    expect(await screen.findByText("Operação realizada com sucesso")).toBeInTheDocument();
    await waitFor(() => expect(page.location.pathname).toBe("/"));
    expect(api.bodySentTo(SEND)).toEqual({
      name: "Ana Souza",
      email: "ana@example.com",
      phone: "11987654321",
      subject: "Meu cartão",
      message: "Não recebi meu cartão.",
      captcha: "off",
      station_id: 7,
      user_id: null,
    });
  });

  it("shows the server's text when the message is refused and stays on the page", async () => {
    stubApi({
      [SEND]: () =>
        jsonResponse({ messages: ["Você enviou muitas mensagens em pouco tempo. Aguarde alguns minutos e tente novamente."] }, 429),
    });
    const { page } = renderApp({ path: "/suporte" });
    await screen.findByLabelText("Nome");
    type("Nome", "Ana");
    type("E-mail", "ana@example.com");
    type("Assunto", "Dúvida");
    type("Mensagem", "Olá");
    fireEvent.click(screen.getByRole("button", { name: "Enviar" }));
    expect(
      await screen.findByText("Você enviou muitas mensagens em pouco tempo. Aguarde alguns minutos e tente novamente."),
    ).toBeInTheDocument();
    expect(page.location.pathname).toBe("/suporte");
    expect(screen.getByRole("button", { name: "Enviar" })).toBeEnabled();
  });

  it("the enterprise variant fixes the subject and waits for e-mail, name and message", async () => {
    const api = stubApi({ [SEND]: () => jsonResponse({ id: 6, message: "Operação realizada com sucesso" }, 201) });
    renderApp({ path: "/suporte-enterprise" });
    expect(await screen.findByRole("heading", { level: 1, name: "Plano Enterprise" })).toBeInTheDocument();
    expect(screen.queryByLabelText("Assunto")).not.toBeInTheDocument();
    const send = screen.getByRole("button", { name: "Enviar" });
    expect(send).toBeDisabled();
    type("Nome", "Empresa X");
    type("E-mail", "compras@empresa.example");
    expect(send).toBeDisabled();
    type("Mensagem", "Somos 300 pessoas.");
    expect(send).toBeEnabled();
    fireEvent.click(send);
    await waitFor(() => expect(api.callsTo(SEND)).toHaveLength(1));
    expect(api.bodySentTo(SEND)).toMatchObject({ subject: "Consulta sobre plano Enterprise", phone: null });
  });

  it("fills in a signed-in member's name and e-mail and sends as them", async () => {
    signIn({ tel: "11912345678" });
    const api = stubApi({
      [BALANCE]: () => jsonResponse(buildWalletBalance()),
      [SEND]: () => jsonResponse({ id: 7, message: "Operação realizada com sucesso" }, 201),
    });
    renderApp({ path: "/homepage/support" });
    expect(await screen.findByRole("heading", { level: 1, name: "Fale conosco" })).toBeInTheDocument();
    expect(screen.getByLabelText("Nome")).toHaveValue("Maria Silva");
    expect(screen.getByLabelText("E-mail")).toHaveValue("maria@filia.example");
    type("Assunto", "Pontos");
    type("Mensagem", "Meus pontos não apareceram.");
    fireEvent.click(screen.getByRole("button", { name: "Enviar" }));
    await waitFor(() => expect(api.callsTo(SEND)).toHaveLength(1));
    expect(api.bodySentTo(SEND)).toMatchObject({ user_id: 1, station_id: 7, phone: "11912345678", email: "maria@filia.example" });
  });
});

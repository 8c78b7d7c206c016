import { act, fireEvent, screen, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { stubApi } from "@/testing/stub-api";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { elapse } from "@/features/jobs/testing/job-fixtures";
import { buildStation, buildUser, jsonResponse } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";

const ACTIVATE = "POST /api/auth/signup/activate-participant/";
const RESEND = "POST /api/auth/resend-confirmation-email";
const CONFIRMATION_METHOD = "POST /api/auth/confirmation-method";
const station = buildStation({ id: 7 });

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
});

async function renderConfirmation(email = "maria@filia.example", state?: object) {
  const rendered = renderApp({ path: "/", station });
  await act(() => rendered.page.navigate(`/confirmacao/${encodeURIComponent(email)}`, { state }));
  await elapse(0);
  return rendered;
}

const codeInput = () => screen.getByLabelText("Código de verificação");
const validateButton = () => screen.getByRole("button", { name: "Validar código" });
const resendButton = () => screen.getByRole("button", { name: /^Reenviar código/ });
const notifications = () => within(screen.getByRole("region", { name: "Notificações" }));

describe("/confirmacao/{email}", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it("says where the code went", async () => {
    await renderConfirmation();

    expect(screen.getByRole("heading", { name: "Confirme o seu cadastro" })).toBeInTheDocument();
    expect(screen.getByText("maria@filia.example")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Voltar para o login" })).toHaveAttribute("href", "/login");
  });

  it("keeps only six digits in the code", async () => {
    await renderConfirmation();

    fireEvent.change(codeInput(), { target: { value: "12a-34 5678" } });

    expect(codeInput()).toHaveValue("123456");
  });

  it("takes a pasted code with spaces around it", async () => {
    await renderConfirmation();
    const input = codeInput() as HTMLInputElement;
    const pasted = " 123456 ";

    // jsdom ignores maxlength; a browser cuts the paste to it before the input event.
    fireEvent.change(input, { target: { value: input.maxLength >= 0 ? pasted.slice(0, input.maxLength) : pasted } });

    expect(input).toHaveValue("123456");
  });

  it.each([
    ["", "Esse campo é obrigatório"],
    ["12345", "Esse campo deve possuir no minimo 6 caracteres"],
  ])("refuses the code %j: %s", async (code, message) => {
    const { calls } = stubApi({});
    await renderConfirmation();

    fireEvent.change(codeInput(), { target: { value: code } });
    fireEvent.click(validateButton());

    expect(screen.getByText(message)).toBeInTheDocument();
    // The landing it starts from asks for its carousel; the form asks for nothing.
    expect(calls.filter((call) => call.method === "POST")).toEqual([]);
  });

  it("validates the code and goes to /login, which says so", async () => {
    const api = stubApi({ [ACTIVATE]: () => jsonResponse({ message: "Sucesso! Código validado", user: buildUser() }) });
    const { page } = await renderConfirmation();

    fireEvent.change(codeInput(), { target: { value: "123456" } });
    fireEvent.click(validateButton());
    expect(validateButton()).toBeDisabled();
    await elapse(0);

    expect(page.location.pathname).toBe("/login");
    expect(screen.getByText("Sucesso! Código validado")).toBeInTheDocument();
    expect(api.bodySentTo(ACTIVATE)).toEqual({
      station: 7,
      establishment: 3,
      email: "maria@filia.example",
      hash: "123456",
    });
  });

  it("sends the account id of the affiliated flow, whose e-mail is masked", async () => {
    const api = stubApi({ [ACTIVATE]: () => jsonResponse({ message: "Sucesso! Código validado", user: buildUser() }) });
    await renderConfirmation("ma***@fi***.example", { userId: 41 });

    fireEvent.change(codeInput(), { target: { value: "654321" } });
    fireEvent.click(validateButton());
    await elapse(0);

    expect(api.bodySentTo(ACTIVATE)).toMatchObject({ email: "ma***@fi***.example", hash: "654321", user_id: 41 });
  });

  it("shows the server's message for a wrong code and stays", async () => {
    stubApi({ [ACTIVATE]: () => jsonResponse({ messages: ["Código inválido."] }, 422) });
    const { page } = await renderConfirmation();

    fireEvent.change(codeInput(), { target: { value: "000000" } });
    fireEvent.click(validateButton());
    await elapse(0);

    expect(notifications().getByText("Código inválido.")).toBeInTheDocument();
    expect(page.location.pathname).toBe("/confirmacao/maria%40filia.example");
    expect(validateButton()).toBeEnabled();
  });

  it("lets a new code be asked for only after a 60-second countdown", async () => {
    const api = stubApi({
      [RESEND]: () => jsonResponse({ message: "E-mail enviado com sucesso", resend_in: 60 }),
    });
    await renderConfirmation();

    expect(resendButton()).toBeDisabled();
    expect(resendButton()).toHaveTextContent("Reenviar código em 60s");
    await elapse(1000);
    expect(resendButton()).toHaveTextContent("Reenviar código em 59s");
    await elapse(58_000);
    expect(resendButton()).toHaveTextContent("Reenviar código em 1s");
    expect(resendButton()).toBeDisabled();
    await elapse(1000);
    expect(resendButton()).toBeEnabled();
    expect(resendButton()).toHaveTextContent(/^Reenviar código$/);

    fireEvent.click(resendButton());
    await elapse(0);

    expect(api.bodySentTo(RESEND)).toEqual({ email: "maria@filia.example", station_id: 7 });
    expect(notifications().getByText("E-mail enviado com sucesso")).toBeInTheDocument();
    expect(resendButton()).toBeDisabled();
    expect(resendButton()).toHaveTextContent("Reenviar código em 60s");
  });

  it("waits as long as the server says after a 429", async () => {
    const message = "Aguarde 25 segundos para pedir um novo código.";
    stubApi({
      [RESEND]: () =>
        new Response(JSON.stringify({ messages: [message] }), {
          status: 429,
          headers: { "Content-Type": "application/json", "Retry-After": "25" },
        }),
    });
    await renderConfirmation();
    await elapse(60_000);

    fireEvent.click(resendButton());
    await elapse(0);

    expect(notifications().getByText(message)).toBeInTheDocument();
    expect(resendButton()).toHaveTextContent("Reenviar código em 25s");
    await elapse(25_000);
    expect(resendButton()).toBeEnabled();
  });

  it("asks the affiliated flow's new code by account id", async () => {
    const api = stubApi({
      [CONFIRMATION_METHOD]: () => jsonResponse({ message: "E-mail enviado com sucesso", resend_in: 60 }),
    });
    await renderConfirmation("ma***@fi***.example", { userId: 41 });
    await elapse(60_000);

    fireEvent.click(resendButton());
    await elapse(0);

    expect(api.bodySentTo(CONFIRMATION_METHOD)).toMatchObject({ station_id: 7, user_id: 41, type: "email" });
    expect(api.callsTo(RESEND)).toHaveLength(0);
    expect(resendButton()).toHaveTextContent("Reenviar código em 60s");
  });
});

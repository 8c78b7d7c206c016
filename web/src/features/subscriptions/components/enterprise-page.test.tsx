import { fireEvent, screen } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { ENTERPRISE } from "@/features/subscriptions/testing/subscription-fixtures";
import { buildWalletBalance, jsonResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { stubApi, type ApiHandler } from "@/testing/stub-api";

const BALANCE = "GET /api/users-points/1";

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  signIn();
});

function stubEnterprise(handlers: Record<string, ApiHandler> = {}) {
  return stubApi({ [BALANCE]: () => jsonResponse(buildWalletBalance()), ...handlers });
}

describe("enterprise plan form", () => {
  it("waits for the message, refuses more than 600 characters, and sends it with the captcha", async () => {
    const api = stubEnterprise({ [ENTERPRISE]: () => jsonResponse({}, 202) });
    renderApp({ path: "/homepage/planos/sobconsulta" });
    const send = await screen.findByRole("button", { name: "Enviar" });
    expect(send).toBeDisabled();

    const message = screen.getByLabelText("Mensagem");
    fireEvent.change(message, { target: { value: "a".repeat(601) } });
    expect(screen.getByText("Esse campo deve possuir no máximo 600 caracteres")).toBeInTheDocument();
    expect(send).toBeDisabled();

    fireEvent.change(message, { target: { value: "  Somos 300 pessoas.  " } });
    expect(screen.getByText("22/600")).toBeInTheDocument();
    expect(send).toBeEnabled();
    fireEvent.click(send);

    expect(await screen.findByText("Operação realizada com sucesso")).toHaveAttribute("role", "status");
    expect(api.bodySentTo(ENTERPRISE)).toEqual({ message: "Somos 300 pessoas.", captcha: "off" });
  });

  it("shows the refusal", async () => {
    stubEnterprise({ [ENTERPRISE]: () => jsonResponse({ messages: ["Muitas mensagens. Tente mais tarde."] }, 429) });
    renderApp({ path: "/homepage/planos/sobconsulta" });
    fireEvent.change(await screen.findByLabelText("Mensagem"), { target: { value: "Olá" } });
    fireEvent.click(screen.getByRole("button", { name: "Enviar" }));
    expect(await screen.findAllByText("Muitas mensagens. Tente mais tarde.")).not.toHaveLength(0);
  });
});

import { fireEvent, screen } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { buildVoucher, validateCall, validatorCall } from "@/features/commerce/testing/commerce-fixtures";
import { jsonResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { stubApi } from "@/testing/stub-api";

const CODE = "7K3M9Q2X4B8N";
const PATH = `/validador/${CODE}`;
const NOT_AUTHORIZED = { messages: ["Você não possui autorização para acessar esta página."] };

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
});

async function expectUnauthorizedPage() {
  expect(await screen.findByRole("heading", { level: 1, name: "Erro 401!" })).toBeInTheDocument();
  expect(screen.getByText("Você não possui autorização para acessar esta página.")).toBeInTheDocument();
}

describe("/validador/{code}", () => {
  it("gives a visitor the 401 page without asking for the voucher", async () => {
    const api = stubApi();
    renderApp({ path: PATH });
    await expectUnauthorizedPage();
    expect(screen.getByRole("link", { name: "Entrar" })).toHaveAttribute("href", "/login");
    expect(api.callsTo(validatorCall(CODE))).toHaveLength(0);
  });

  it("gives the 401 page to a signed-in account no partner of the activity granted", async () => {
    signIn();
    stubApi({ [validatorCall(CODE)]: () => jsonResponse(NOT_AUTHORIZED, 403) });
    renderApp({ path: PATH });
    await expectUnauthorizedPage();
    expect(screen.queryByRole("button", { name: "Validar voucher" })).not.toBeInTheDocument();
  });

  it("shows the voucher to the partner's staff while loading, then marks it used once", async () => {
    signIn({ name: "Atendente do parceiro" });
    let release: (response: Response) => void = () => undefined;
    const api = stubApi({
      [validatorCall(CODE)]: () => new Promise<Response>((resolve) => (release = resolve)),
      [validateCall(CODE)]: () => jsonResponse(buildVoucher({ validated: "1" })),
    });
    renderApp({ path: PATH });
    expect(await screen.findByText("Aguarde um momento...")).toBeInTheDocument();

    release(
      jsonResponse(buildVoucher({ dependents: [{ dependente: "João Silva", parentesco: "Filho" }] })),
    );
    expect(await screen.findByRole("heading", { level: 1, name: "Validação de voucher" })).toBeInTheDocument();
    expect(screen.getByText("Cupom do cinema")).toBeInTheDocument();
    expect(screen.getByText(/Código:/)).toHaveTextContent(`Código: ${CODE}`);
    expect(screen.getByText("João Silva (Filho)")).toBeInTheDocument();
    expect(api.authorizationSentTo(validatorCall(CODE))).toBe("Bearer test-token");

    fireEvent.click(screen.getByRole("button", { name: "Validar voucher" }));
    expect(await screen.findByText("Voucher validado com sucesso!")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Validar voucher" })).not.toBeInTheDocument();
    expect(api.callsTo(validateCall(CODE))).toHaveLength(1);
  });

  it("says a used voucher was used and offers no validation", async () => {
    signIn();
    stubApi({ [validatorCall(CODE)]: () => jsonResponse(buildVoucher({ validated: "1" })) });
    renderApp({ path: PATH });
    expect(await screen.findByText("Este voucher já foi utilizado!")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Validar voucher" })).not.toBeInTheDocument();
  });

  it("says the voucher was used when another validation got there first (409)", async () => {
    signIn();
    stubApi({
      [validatorCall(CODE)]: () => jsonResponse(buildVoucher()),
      [validateCall(CODE)]: () => jsonResponse({ messages: ["Este voucher já foi utilizado!"] }, 409),
    });
    renderApp({ path: PATH });
    fireEvent.click(await screen.findByRole("button", { name: "Validar voucher" }));
    expect(await screen.findByText("Este voucher já foi utilizado!")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Validar voucher" })).not.toBeInTheDocument();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });

  it("says the voucher's unit was refunded when the server refuses it so (409)", async () => {
    signIn();
    const refunded = "Este voucher foi estornado e não pode mais ser utilizado.";
    stubApi({
      [validatorCall(CODE)]: () => jsonResponse(buildVoucher()),
      [validateCall(CODE)]: () => jsonResponse({ messages: [refunded] }, 409),
    });
    renderApp({ path: PATH });
    fireEvent.click(await screen.findByRole("button", { name: "Validar voucher" }));
    expect(await screen.findByText(refunded)).toBeInTheDocument();
    expect(screen.queryByText("Este voucher já foi utilizado!")).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Validar voucher" })).not.toBeInTheDocument();
  });

  it("says so for a code that names no voucher", async () => {
    signIn();
    stubApi({ [validatorCall("NOPE")]: () => jsonResponse({ error: "Voucher não encontrado" }, 404) });
    renderApp({ path: "/validador/NOPE" });
    expect(await screen.findByText("Voucher não encontrado")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Tentar novamente" })).not.toBeInTheDocument();
  });
});

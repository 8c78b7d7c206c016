import { fireEvent, screen, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { buildStation, buildUser, buildWalletBalance, jsonResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { stubApi, type ApiHandler } from "@/testing/stub-api";
import type { MemberCard } from "@/types/api";

const PATH = "/homepage/carteirinha";
const CARD_CALL = "GET /api/users/1";
const PDF_CALL = "GET /api/users/1/member-card/pdf";
const CARD_STATION = buildStation({ member_card_access: true });

const CARD: MemberCard = {
  number: "00000001",
  name: "Maria Silva",
  cpf: "529.982.247-25",
  birthday: "1990-05-17",
  establishments: ["Associação Filia Demo"],
  valid_until: "2026-12-31",
  validator_link: "https://demo.filia.app/qr-code-user-validator/1",
};

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  signIn();
});

function stub(handlers: Record<string, ApiHandler>) {
  return stubApi({ "GET /api/users-points/1": () => jsonResponse(buildWalletBalance()), ...handlers });
}

describe("/homepage/carteirinha", () => {
  it("shows a placeholder while the card loads", async () => {
    stub({ [CARD_CALL]: () => new Promise<Response>(() => undefined) });
    renderApp({ path: PATH, station: CARD_STATION });
    expect(await screen.findByRole("heading", { level: 1, name: "Carteirinha" })).toBeInTheDocument();
    expect(screen.getByRole("status", { name: "Carregando carteirinha" })).toBeInTheDocument();
  });

  it("shows the card with its QR code, data and validity, and prints it", async () => {
    stub({ [CARD_CALL]: () => jsonResponse([{ ...buildUser(), member_card: CARD }]) });
    const print = vi.spyOn(window, "print").mockImplementation(() => undefined);
    renderApp({ path: PATH, station: CARD_STATION });

    const card = await screen.findByRole("article", { name: "Carteirinha de Maria Silva" });
    expect(within(card).getByText("00000001")).toBeInTheDocument();
    expect(within(card).getByText("529.982.247-25")).toBeInTheDocument();
    expect(within(card).getByText("17/05/1990")).toBeInTheDocument();
    expect(within(card).getByText("Associação Filia Demo")).toBeInTheDocument();
    expect(within(card).getByText("Válida até 31/12/2026")).toBeInTheDocument();
    expect(within(card).getByRole("img", { name: "QR code de validação da carteirinha" })).toHaveAttribute(
      "data-qr-value",
      CARD.validator_link,
    );
    fireEvent.click(screen.getByRole("button", { name: "Imprimir" }));
    expect(print).toHaveBeenCalledOnce();
  });

  it("asks for the PDF and follows its job", async () => {
    const api = stub({
      [CARD_CALL]: () => jsonResponse([{ ...buildUser(), member_card: CARD }]),
      [PDF_CALL]: () => jsonResponse({ job_id: "01JOB" }, 202),
      "GET /api/jobs/01JOB": () => new Promise<Response>(() => undefined),
    });
    renderApp({ path: PATH, station: CARD_STATION });
    fireEvent.click(await screen.findByRole("button", { name: "Salvar PDF" }));
    await vi.waitFor(() => expect(api.callsTo("GET /api/jobs/01JOB").length).toBeGreaterThan(0));
    expect(api.callsTo(PDF_CALL)).toHaveLength(1);
  });

  it("says the card could not be loaded when the call fails", async () => {
    stub({ [CARD_CALL]: () => jsonResponse({ messages: ["Você não possui autorização para acessar esta página."] }, 403) });
    renderApp({ path: PATH, station: CARD_STATION });
    expect(await screen.findByText("Não foi possível carregar a sua carteirinha.")).toBeInTheDocument();
  });

  it("is not found where the station shows no member card", async () => {
    const api = stub({});
    renderApp({ path: PATH });
    expect(await screen.findByRole("heading", { level: 1 })).not.toHaveTextContent("Carteirinha");
    expect(api.callsTo(CARD_CALL)).toHaveLength(0);
  });
});

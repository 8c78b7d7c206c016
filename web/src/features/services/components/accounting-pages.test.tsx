import { fireEvent, screen, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import {
  ACCOUNTING_APPOINTMENTS_CALL,
  ACCOUNTING_PROCESSES_CALL,
  ACCOUNTING_STATION,
  buildAppointment,
  buildLegalProcess,
  LEGAL_STATION,
  REQUEST_ACCOUNTING_CALL,
} from "@/features/services/testing/services-fixtures";
import { buildWalletBalance, jsonResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { stubApi, type ApiHandler } from "@/testing/stub-api";

const BASE = "/homepage/consultoria-contabil";

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  signIn();
});

function stubServices(handlers: Record<string, ApiHandler>) {
  return stubApi({ "GET /api/users-points/1": () => jsonResponse(buildWalletBalance()), ...handlers });
}

describe("the accounting consultancy", () => {
  it("says when it attends and leads to each page", async () => {
    stubServices({});
    renderApp({ path: BASE, station: ACCOUNTING_STATION });
    expect(await screen.findByRole("heading", { level: 1, name: "Consultoria Contábil" })).toBeInTheDocument();
    expect(screen.getByText(/quintas-feiras, das 9h às 18h/)).toBeInTheDocument();
    const pages = within(screen.getByRole("navigation", { name: "Páginas de Consultoria Contábil" }));
    expect(pages.getAllByRole("link").map((link) => link.getAttribute("href"))).toEqual([
      `${BASE}/processos`,
      `${BASE}/agendamentos`,
      `${BASE}/orientacoes`,
      `${BASE}/contato`,
      `${BASE}/informacoes`,
      `${BASE}/noticias`,
      `${BASE}/eventos`,
    ]);
  });

  it("is not found where the station offers only the legal desk", async () => {
    const api = stubServices({ [ACCOUNTING_APPOINTMENTS_CALL]: () => jsonResponse([]) });
    renderApp({ path: `${BASE}/agendamentos`, station: LEGAL_STATION });
    expect(await screen.findByRole("heading", { name: "Página não encontrada" })).toBeInTheDocument();
    expect(api.callsTo(ACCOUNTING_APPOINTMENTS_CALL)).toHaveLength(0);
  });

  it("lists the cases in one list, without the legal title", async () => {
    let cases = [buildLegalProcess({ tipo: "Tributário", publicadoPortal: false })];
    stubServices({ [ACCOUNTING_PROCESSES_CALL]: () => jsonResponse(cases) });
    const first = renderApp({ path: `${BASE}/processos`, station: ACCOUNTING_STATION });
    const list = await screen.findByRole("list", { name: "Processos" });
    expect(screen.queryByRole("heading", { name: "Causas coletivas" })).not.toBeInTheDocument();
    fireEvent.click(within(list).getByRole("button", { name: /Tributário/ }));
    const dialog = screen.getByRole("dialog", { name: /0001234-56/ });
    expect(within(dialog).queryByText("Título")).not.toBeInTheDocument();
    expect(within(dialog).getByText("TRT-2")).toBeInTheDocument();
    first.unmount();

    cases = [];
    renderApp({ path: `${BASE}/processos`, station: ACCOUNTING_STATION });
    expect(await screen.findByText("Não foram encontrados processos em seu CPF.")).toBeInTheDocument();
  });

  it("offers Thursday only and has no cancel", async () => {
    const api = stubServices({
      [ACCOUNTING_APPOINTMENTS_CALL]: () => jsonResponse([buildAppointment({ escritorio: null, descricao: "Imposto de renda" })]),
      [REQUEST_ACCOUNTING_CALL]: () => jsonResponse({ id: 1, message: "Solicitação enviada com sucesso." }, 201),
    });
    renderApp({ path: `${BASE}/agendamentos`, station: ACCOUNTING_STATION });
    const upcoming = await screen.findByRole("list", { name: "Próximos atendimentos" });
    expect(within(upcoming).getByText("Imposto de renda")).toBeInTheDocument();
    expect(within(upcoming).getByText("Agendado")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Cancelar" })).not.toBeInTheDocument();

    fireEvent.click(screen.getByRole("button", { name: "Solicitar agendamento" }));
    const dialog = screen.getByRole("dialog", { name: "Solicitar agendamento" });
    const day = within(dialog).getByRole("combobox", { name: "Dia de preferência" });
    expect(within(day).getAllByRole("option").map((option) => option.textContent)).toEqual(["Quinta-feira"]);
    expect(day).toHaveValue("Quinta-feira");
    fireEvent.change(within(dialog).getByRole("textbox", { name: "Descrição" }), { target: { value: "Imposto de renda" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Enviar solicitação" }));
    expect(await within(dialog).findByText("Sua solicitação foi realizada com sucesso!")).toBeInTheDocument();
    expect(api.bodySentTo(REQUEST_ACCOUNTING_CALL)).toEqual({ date: "Quinta-feira", description: "Imposto de renda" });
  });

  it("says so when there are no appointments", async () => {
    stubServices({ [ACCOUNTING_APPOINTMENTS_CALL]: () => jsonResponse([]) });
    renderApp({ path: `${BASE}/agendamentos`, station: ACCOUNTING_STATION });
    expect(await screen.findByText("Não foram encontrados agendamentos em seu CPF.")).toBeInTheDocument();
  });
});

import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import {
  buildRequestCreated,
  DENTAL_CALL,
  HEALTH_STATION,
  NUTRITIONIST_CALL,
  PSYCHOLOGIST_CALL,
} from "@/features/health/testing/health-fixtures";
import { buildStation, buildWalletBalance, jsonResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { stubApi, type ApiHandler } from "@/testing/stub-api";

const HEALTH = "/homepage/saude";

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  signIn();
});

function stubHealth(handlers: Record<string, ApiHandler> = {}) {
  return stubApi({ "GET /api/users-points/1": () => jsonResponse(buildWalletBalance()), ...handlers });
}

const weekdaySelect = () => screen.getByRole("combobox", { name: "Dia da semana de preferência" });
const optionsOf = (select: HTMLElement) =>
  within(select)
    .getAllByRole("option")
    .map((option) => option.textContent)
    .filter((text) => text !== "Selecione");

function fill({ description = "Consulta de rotina", day = "Terça-feira", phone = "11987654321" } = {}) {
  fireEvent.change(screen.getByRole("textbox", { name: "Descrição" }), { target: { value: description } });
  fireEvent.change(weekdaySelect(), { target: { value: day } });
  fireEvent.change(screen.getByRole("textbox", { name: "Telefone" }), { target: { value: phone } });
}

const send = () => fireEvent.click(screen.getByRole("button", { name: "Solicitar agendamento" }));

describe("the health landing", () => {
  it("shows the three services, each with its form and its info page", async () => {
    stubHealth();
    const { page } = renderApp({ path: HEALTH, station: HEALTH_STATION });

    expect(await screen.findByRole("heading", { level: 1, name: "Saúde" })).toBeInTheDocument();
    const services = screen.getAllByRole("article").map((card) => within(card).getByRole("heading", { level: 2 }).textContent);
    expect(services).toEqual(["Odontologia", "Psicologia", "Nutricionista"]);
    expect(screen.getByRole("link", { name: "Agendar Odontologia" })).toHaveAttribute("href", `${HEALTH}/agendamento-odontologia`);
    expect(screen.getByRole("link", { name: "Informações sobre Psicologia" })).toHaveAttribute(
      "href",
      `${HEALTH}/agendamento-psicologia-info`,
    );
    fireEvent.click(screen.getByRole("link", { name: "Agendar Nutricionista" }));
    await waitFor(() => expect(page.location.pathname).toBe(`${HEALTH}/agendamento-nutricionista`));
    expect(await screen.findByRole("heading", { level: 1, name: "Agendamento com nutricionista" })).toBeInTheDocument();
    // The file's first render pays for the app's first paint: slow on a busy machine.
  }, 15_000);

  it.each([
    HEALTH,
    `${HEALTH}/agendamento-odontologia`,
    `${HEALTH}/agendamento-psicologia`,
    `${HEALTH}/agendamento-nutricionista`,
    `${HEALTH}/agendamento-odontologia-info`,
    `${HEALTH}/agendamento-psicologia-info`,
    `${HEALTH}/agendamento-nutricionista-info`,
  ])("%s is not found where the station offers no health desk", async (path) => {
    const api = stubHealth();
    renderApp({ path, station: buildStation({ health_access: false }) });
    expect(await screen.findByRole("heading", { name: "Página não encontrada" })).toBeInTheDocument();
    expect(api.calls.some((call) => call.url.startsWith("/api/health"))).toBe(false);
  });
});

describe("the appointment forms", () => {
  it.each([
    ["agendamento-odontologia", ["Segunda-feira", "Terça-feira", "Quarta-feira", "Quinta-feira", "Sexta-feira", "Sábado"]],
    ["agendamento-psicologia", ["Segunda-feira", "Terça-feira", "Quarta-feira", "Quinta-feira", "Sexta-feira"]],
    ["agendamento-nutricionista", ["Terça-feira", "Quinta-feira"]],
  ])("%s offers the service's own weekdays", async (slug, days) => {
    stubHealth();
    renderApp({ path: `${HEALTH}/${slug}`, station: HEALTH_STATION });
    await screen.findByRole("heading", { level: 1 });
    expect(optionsOf(weekdaySelect())).toEqual(days);
  });

  it("masks the phone as (99) 9.9999-9999 and sends the request with its digits", async () => {
    const api = stubHealth({ [DENTAL_CALL]: () => jsonResponse(buildRequestCreated(), 201) });
    renderApp({ path: `${HEALTH}/agendamento-odontologia`, station: HEALTH_STATION });
    await screen.findByRole("heading", { level: 1, name: "Agendamento odontológico" });

    fill({ description: "  Dor de dente  ", day: "Sábado", phone: "11987654321" });
    expect(screen.getByRole("textbox", { name: "Telefone" })).toHaveValue("(11) 9.8765-4321");
    send();

    const success = await screen.findByRole("heading", { level: 2, name: "Sucesso" });
    expect(success).toHaveFocus();
    expect(screen.getByText("Solicitação enviada com sucesso.")).toBeInTheDocument();
    expect(api.bodySentTo(DENTAL_CALL)).toEqual({ description: "Dor de dente", date: "Sábado", phone: "11987654321" });

    // Another request starts from an empty form.
    fireEvent.click(screen.getByRole("button", { name: "Fazer outra solicitação" }));
    expect(screen.getByRole("textbox", { name: "Descrição" })).toHaveValue("");
    expect(screen.getByRole("textbox", { name: "Telefone" })).toHaveValue("");
  });

  it("masks a landline's ten digits as (99) 9999-9999", async () => {
    const api = stubHealth({ [PSYCHOLOGIST_CALL]: () => jsonResponse(buildRequestCreated(), 201) });
    renderApp({ path: `${HEALTH}/agendamento-psicologia`, station: HEALTH_STATION });
    await screen.findByRole("heading", { level: 1, name: "Agendamento com psicólogo" });
    fill({ day: "Sexta-feira", phone: "1133334444" });
    expect(screen.getByRole("textbox", { name: "Telefone" })).toHaveValue("(11) 3333-4444");
    send();
    await screen.findByRole("heading", { name: "Sucesso" });
    expect(api.bodySentTo(PSYCHOLOGIST_CALL)).toEqual({ description: "Consulta de rotina", date: "Sexta-feira", phone: "1133334444" });
  });

  it("asks for every field, a whole phone and a day the service attends, sending nothing", async () => {
    const api = stubHealth();
    renderApp({ path: `${HEALTH}/agendamento-nutricionista`, station: HEALTH_STATION });
    await screen.findByRole("heading", { level: 1 });
    send();

    const description = screen.getByRole("textbox", { name: "Descrição" });
    expect(description).toHaveAttribute("aria-invalid", "true");
    expect(description).toHaveAccessibleDescription("Esse campo é obrigatório");
    expect(weekdaySelect()).toHaveAccessibleDescription("Esse campo é obrigatório");
    expect(screen.getByRole("textbox", { name: "Telefone" })).toHaveAccessibleDescription("Esse campo é obrigatório");

    fireEvent.change(description, { target: { value: "   " } });
    fireEvent.change(screen.getByRole("textbox", { name: "Telefone" }), { target: { value: "1198765" } });
    expect(description).toHaveAccessibleDescription("Esse campo é obrigatório");
    expect(screen.getByRole("textbox", { name: "Telefone" })).toHaveAccessibleDescription("Telefone inválido");

    fireEvent.change(description, { target: { value: "x".repeat(1001) } });
    expect(description).toHaveAccessibleDescription("Esse campo deve possuir no máximo 1000 caracteres");

    // A day the nutritionist does not attend (not offered; a stale value still refused).
    fireEvent.change(weekdaySelect(), { target: { value: "Segunda-feira" } });
    expect(weekdaySelect()).toHaveValue("");
    send();
    expect(api.callsTo(NUTRITIONIST_CALL)).toHaveLength(0);
  });

  it("shows a refusal's first message, else 'Erro', and keeps the form", async () => {
    let answer = () =>
      jsonResponse({ messages: ["cpf: Cadastre seu CPF no seu perfil para solicitar atendimento.", "outra"] }, 422);
    stubHealth({ [NUTRITIONIST_CALL]: () => answer() });
    renderApp({ path: `${HEALTH}/agendamento-nutricionista`, station: HEALTH_STATION });
    await screen.findByRole("heading", { level: 1 });
    fill({ day: "Quinta-feira" });
    send();
    expect(await screen.findByRole("alert")).toHaveTextContent("cpf: Cadastre seu CPF no seu perfil para solicitar atendimento.");
    expect(screen.getByRole("textbox", { name: "Descrição" })).toHaveValue("Consulta de rotina");

    answer = () => new Response("<html>Bad gateway</html>", { status: 502 });
    send();
    await waitFor(() => expect(screen.getByRole("alert")).toHaveTextContent(/^Erro$/));
    expect(screen.queryByRole("heading", { name: "Sucesso" })).not.toBeInTheDocument();
  });
});

describe("the info pages", () => {
  it("tell the dental clinic's hours, the plan's providers, the cashback, the start and the dependents", async () => {
    stubHealth();
    renderApp({ path: `${HEALTH}/agendamento-odontologia-info`, station: HEALTH_STATION });
    expect(await screen.findByRole("heading", { level: 1, name: "Odontologia: informações" })).toBeInTheDocument();
    expect(screen.getByText(/segunda a sexta-feira, das 8h às 18h, e aos sábados, das 9h às 13h/)).toBeInTheDocument();
    expect(screen.getByText(/mais de 100 prestadores/)).toBeInTheDocument();
    expect(screen.getByText(/50% do valor da coparticipação paga, creditado na sua carteira em até 90 dias/)).toBeInTheDocument();
    expect(screen.getByText("O serviço começa em 24/03/2025.")).toBeInTheDocument();
    expect(screen.getByText(/idade limite de 21 anos, ou 24 anos se estiverem estudando/)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Solicitar agendamento" })).toHaveAttribute("href", `${HEALTH}/agendamento-odontologia`);
  });

  it("tell the nutritionist's days", async () => {
    stubHealth();
    renderApp({ path: `${HEALTH}/agendamento-nutricionista-info`, station: HEALTH_STATION });
    expect(await screen.findByRole("heading", { level: 1, name: "Nutricionista: informações" })).toBeInTheDocument();
    expect(screen.getByText(/às terças-feiras e quintas-feiras/)).toBeInTheDocument();
    expect(screen.queryByText(/prestadores/)).not.toBeInTheDocument();
  });
});

import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { buildActivityCards, buildCategory, categoryCarouselCall } from "@/features/activities/testing/activity-fixtures";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import {
  buildAppointment,
  buildLegalProcess,
  buildServicePage,
  CANCEL_LEGAL_CALL,
  LEGAL_APPOINTMENTS_CALL,
  LEGAL_PAGE_CALL,
  LEGAL_PROCESSES_CALL,
  LEGAL_STATION,
  REQUEST_LEGAL_CALL,
} from "@/features/services/testing/services-fixtures";
import { buildWalletBalance, jsonResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { stubApi, type ApiHandler } from "@/testing/stub-api";
import type { ServiceAppointment } from "@/types/api";

const BASE = "/homepage/consultoria-juridica";

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  signIn();
});

function stubServices(handlers: Record<string, ApiHandler>) {
  return stubApi({ "GET /api/users-points/1": () => jsonResponse(buildWalletBalance()), ...handlers });
}

const notifications = () => screen.getByRole("region", { name: "Notificações" });

describe("the legal consultancy's landing", () => {
  it("says who the service is for and when it attends, and leads to each page", async () => {
    stubServices({});
    renderApp({ path: BASE, station: LEGAL_STATION });
    expect(await screen.findByRole("heading", { level: 1, name: "Consultoria Jurídica" })).toBeInTheDocument();
    expect(screen.getByText(/segunda a sexta-feira, das 9h às 18h/)).toBeInTheDocument();
    expect(screen.getByText(/segundas, quartas e sextas-feiras, das 9h às 13h/)).toBeInTheDocument();
    const pages = within(screen.getByRole("navigation", { name: "Páginas de Consultoria Jurídica" }));
    expect(pages.getByRole("link", { name: /Processos/ })).toHaveAttribute("href", `${BASE}/processos`);
    expect(pages.getByRole("link", { name: /Agendamentos/ })).toHaveAttribute("href", `${BASE}/agendamentos`);
    expect(pages.getAllByRole("link")).toHaveLength(8);
  });

  it("shows the carousel of the activity category the station chose for the desk", async () => {
    const api = stubServices({
      [LEGAL_PAGE_CALL]: () => jsonResponse(buildServicePage({ categoria: 31 })),
      [categoryCarouselCall(31)]: () =>
        jsonResponse([buildCategory({ id: 31, name: "Direitos em foco", actions: buildActivityCards(3) })]),
    });
    renderApp({ path: BASE, station: LEGAL_STATION });
    expect(await screen.findByRole("heading", { level: 2, name: "Direitos em foco" })).toBeInTheDocument();
    const carousel = screen.getByRole("region", { name: "Direitos em foco" });
    expect(within(carousel).getByRole("link", { name: /Atividade 1/ })).toHaveAttribute("href", "/homepage/atividades/12");
    expect(within(carousel).getAllByRole("button", { name: /Destaque \d/ })).toHaveLength(3);
    expect(api.callsTo(categoryCarouselCall(31))).toHaveLength(1);
  });

  it("shows no carousel when the desk has no category, or the category has no activities", async () => {
    const api = stubServices({
      [LEGAL_PAGE_CALL]: () => jsonResponse(buildServicePage({ categoria: null })),
    });
    const { unmount } = renderApp({ path: BASE, station: LEGAL_STATION });
    await waitFor(() => expect(api.callsTo(LEGAL_PAGE_CALL)).toHaveLength(1));
    expect(screen.getByRole("navigation", { name: "Páginas de Consultoria Jurídica" })).toBeInTheDocument();
    expect(screen.queryByRole("heading", { level: 2 })).not.toBeInTheDocument();
    expect(api.calls.some((call) => call.url.includes("participant-categories"))).toBe(false);
    unmount();

    const empty = stubServices({
      [LEGAL_PAGE_CALL]: () => jsonResponse(buildServicePage({ categoria: 31 })),
      [categoryCarouselCall(31)]: () => jsonResponse([buildCategory({ id: 31, name: "Direitos em foco", actions: [] })]),
    });
    renderApp({ path: BASE, station: LEGAL_STATION });
    await waitFor(() => expect(empty.callsTo(categoryCarouselCall(31))).toHaveLength(1));
    expect(screen.queryByRole("heading", { name: "Direitos em foco" })).not.toBeInTheDocument();
  });

  it("is not found, without asking the API, where the station offers no legal desk", async () => {
    const api = stubServices({ [LEGAL_PROCESSES_CALL]: () => jsonResponse([]) });
    renderApp({ path: `${BASE}/processos` });
    expect(await screen.findByRole("heading", { name: "Página não encontrada" })).toBeInTheDocument();
    expect(api.callsTo(LEGAL_PROCESSES_CALL)).toHaveLength(0);
  });
});

describe("the legal cases", () => {
  it("splits collective and personal cases, and a card opens its details in a dialog", async () => {
    stubServices({
      [LEGAL_PROCESSES_CALL]: () =>
        jsonResponse([
          buildLegalProcess(),
          buildLegalProcess({ id: 4, numeroProcesso: "0009999-00.2024.8.26.0100", tipo: "Cível", publicadoPortal: false, valorCausa: null, linkProcesso: null }),
        ]),
    });
    renderApp({ path: `${BASE}/processos`, station: LEGAL_STATION });
    const collective = await screen.findByRole("list", { name: "Causas coletivas" });
    expect(within(collective).getAllByRole("listitem")).toHaveLength(1);
    expect(within(collective).getByText("0001234-56.2025.5.02.0001")).toBeInTheDocument();
    const personal = screen.getByRole("list", { name: "Causas pessoais" });
    expect(within(personal).getByText("0009999-00.2024.8.26.0100")).toBeInTheDocument();

    const opener = within(collective).getByRole("button", { name: /0001234-56/ });
    opener.focus();
    fireEvent.click(opener);
    const dialog = screen.getByRole("dialog", { name: "Processo 0001234-56.2025.5.02.0001" });
    const fact = (term: string) => within(dialog).getByText(term).nextElementSibling?.textContent;
    expect(fact("Tipo")).toBe("Trabalhista");
    expect(fact("Data de protocolo")).toBe("14/03/2025");
    expect(fact("Título")).toBe("Horas extras");
    expect(fact("Valor da causa")).toBe("R$ 12.500,00");
    expect(within(dialog).getByRole("link", { name: "Acompanhar processo" })).toHaveAttribute("href", "https://pje.example/processo/1");
    // The focus is inside; Escape closes and gives it back.
    expect(dialog.contains(document.activeElement)).toBe(true);
    fireEvent.keyDown(dialog, { key: "Escape" });
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(opener).toHaveFocus();

    fireEvent.click(within(personal).getByRole("button", { name: /0009999-00/ }));
    const other = screen.getByRole("dialog", { name: /0009999-00/ });
    expect(within(other).getByText("Não informado")).toBeInTheDocument();
    expect(within(other).queryByRole("link")).not.toBeInTheDocument();
    fireEvent.click(within(other).getByRole("button", { name: "Fechar" }));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  it("says so when either kind is missing", async () => {
    let cases = [buildLegalProcess({ publicadoPortal: false })];
    stubServices({ [LEGAL_PROCESSES_CALL]: () => jsonResponse(cases) });
    const first = renderApp({ path: `${BASE}/processos`, station: LEGAL_STATION });
    expect(await screen.findByText("Não foram encontradas causas coletivas em seu CPF.")).toBeInTheDocument();
    expect(screen.queryByText("Não foram encontradas causas pessoais em seu CPF.")).not.toBeInTheDocument();
    first.unmount();

    cases = [];
    renderApp({ path: `${BASE}/processos`, station: LEGAL_STATION });
    expect(await screen.findByText("Não foram encontradas causas pessoais em seu CPF.")).toBeInTheDocument();
    expect(screen.getByText("Não foram encontradas causas coletivas em seu CPF.")).toBeInTheDocument();
  });

  it("shows placeholders while loading, and a failure only stops the loading", async () => {
    let answer: () => Response | Promise<Response> = () => new Promise<Response>(() => undefined);
    stubServices({ [LEGAL_PROCESSES_CALL]: () => answer() });
    const first = renderApp({ path: `${BASE}/processos`, station: LEGAL_STATION });
    expect(await screen.findByRole("status", { name: "Carregando processos" })).toBeInTheDocument();
    first.unmount();

    answer = () => jsonResponse({ messages: ["Serviço não disponível."] }, 404);
    renderApp({ path: `${BASE}/processos`, station: LEGAL_STATION });
    expect(await screen.findByText("Não foram encontradas causas coletivas em seu CPF.")).toBeInTheDocument();
    expect(screen.queryByRole("status", { name: "Carregando processos" })).not.toBeInTheDocument();
    expect(within(notifications()).queryByText("Serviço não disponível.")).not.toBeInTheDocument();
  });
});

describe("the legal appointments", () => {
  const upcoming = buildAppointment();
  const requested = buildAppointment({ id: 10, data: null, horaInicio: null, status: "requested", situacao: "Aguardando confirmação", escritorio: null, diaPreferido: "Segunda-feira" });
  const tooSoon = buildAppointment({ id: 11, data: "2099-12-04T12:00:00Z", cancelavel: false, descricao: "Em menos de 48 horas" });
  const done = buildAppointment({ id: 12, data: "2026-01-10T12:00:00Z", status: "done", situacao: "Concluído", cancelavel: false });
  const absent = buildAppointment({ id: 13, data: "2026-01-05T12:00:00Z", status: "absent", situacao: "Não compareceu", conclusao: { isFiliadoAusente: true }, cancelavel: false });

  it("lists the upcoming ones with their labels and keeps the history folded", async () => {
    stubServices({ [LEGAL_APPOINTMENTS_CALL]: () => jsonResponse([requested, upcoming, tooSoon, done, absent]) });
    renderApp({ path: `${BASE}/agendamentos`, station: LEGAL_STATION });
    const list = await screen.findByRole("list", { name: "Próximos atendimentos" });
    const cards = within(list).getAllByRole("article");
    expect(cards.map((card) => within(card).getByRole("heading").textContent)).toEqual([
      "Data a confirmar",
      "03/12/2099 às 09:00",
      "04/12/2099 às 09:00",
    ]);
    expect(within(cards[0]!).getByText("Aguardando confirmação")).toBeInTheDocument();
    expect(within(cards[1]!).getByText("Agendado")).toBeInTheDocument();
    expect(within(cards[1]!).getByText("Alves & Lima Advogados")).toBeInTheDocument();
    // Only those the API marks cancelable (the 48 hours rule is the server's).
    expect(within(cards[0]!).getByRole("button", { name: "Cancelar" })).toBeInTheDocument();
    expect(within(cards[1]!).getByRole("button", { name: "Cancelar" })).toHaveAccessibleDescription("03/12/2099 às 09:00");
    expect(within(cards[2]!).queryByRole("button", { name: "Cancelar" })).not.toBeInTheDocument();

    const toggle = screen.getByRole("button", { name: "Histórico de atendimentos" });
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    expect(screen.queryByRole("list", { name: "Histórico de atendimentos" })).not.toBeInTheDocument();
    fireEvent.click(toggle);
    expect(toggle).toHaveAttribute("aria-expanded", "true");
    const history = screen.getByRole("list", { name: "Histórico de atendimentos" });
    expect(within(history).getByText("Concluído")).toBeInTheDocument();
    expect(within(history).getByText("Não compareceu")).toBeInTheDocument();
    expect(within(history).queryByRole("button", { name: "Cancelar" })).not.toBeInTheDocument();
    fireEvent.click(toggle);
    expect(toggle).toHaveAttribute("aria-expanded", "false");
  });

  it("says so when there are none", async () => {
    stubServices({ [LEGAL_APPOINTMENTS_CALL]: () => jsonResponse([]) });
    renderApp({ path: `${BASE}/agendamentos`, station: LEGAL_STATION });
    expect(await screen.findByText("Não foram encontrados agendamentos em seu CPF.")).toBeInTheDocument();
  });

  it("asks for an appointment on a weekday and shows the success state", async () => {
    let list: ServiceAppointment[] = [];
    const api = stubServices({
      [LEGAL_APPOINTMENTS_CALL]: () => jsonResponse(list),
      [REQUEST_LEGAL_CALL]: () => {
        list = [requested];
        return jsonResponse({ id: 10, message: "Solicitação enviada com sucesso." }, 201);
      },
    });
    renderApp({ path: `${BASE}/agendamentos`, station: LEGAL_STATION });
    fireEvent.click(await screen.findByRole("button", { name: "Solicitar agendamento" }));
    const dialog = screen.getByRole("dialog", { name: "Solicitar agendamento" });
    const day = within(dialog).getByRole("combobox", { name: "Dia de preferência" });
    expect(within(day).getAllByRole("option").map((option) => option.textContent)).toEqual([
      "Selecione um dia",
      "Segunda-feira",
      "Terça-feira",
      "Quarta-feira",
      "Quinta-feira",
      "Sexta-feira",
    ]);
    expect(day).toHaveFocus();

    // Both fields are required, said beside each.
    fireEvent.click(within(dialog).getByRole("button", { name: "Enviar solicitação" }));
    expect(day).toHaveAccessibleDescription("Esse campo é obrigatório");
    const description = within(dialog).getByRole("textbox", { name: "Descrição" });
    expect(description).toHaveAccessibleDescription(/Esse campo é obrigatório/);
    expect(api.callsTo(REQUEST_LEGAL_CALL)).toHaveLength(0);

    fireEvent.change(day, { target: { value: "Quarta-feira" } });
    fireEvent.change(description, { target: { value: "  Dúvida sobre férias  " } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Enviar solicitação" }));

    const status = await within(dialog).findByRole("status");
    expect(status).toHaveTextContent("Sua solicitação foi realizada com sucesso!");
    expect(status).toHaveTextContent("Em breve entraremos em contato para confirmar os horários disponíveis.");
    expect(api.bodySentTo(REQUEST_LEGAL_CALL)).toEqual({ date: "Quarta-feira", description: "Dúvida sobre férias" });
    expect(within(dialog).getByRole("button", { name: "Fechar" })).toHaveFocus();
    // The list was read again.
    expect(await screen.findByText("Aguardando confirmação")).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole("button", { name: "Fechar" }));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  it("shows a refusal beside its field, or its first message, else 'Erro'", async () => {
    let answer = () => jsonResponse({ messages: ["date: Este serviço não atende neste dia."] }, 422);
    stubServices({ [LEGAL_APPOINTMENTS_CALL]: () => jsonResponse([]), [REQUEST_LEGAL_CALL]: () => answer() });
    renderApp({ path: `${BASE}/agendamentos`, station: LEGAL_STATION });
    fireEvent.click(await screen.findByRole("button", { name: "Solicitar agendamento" }));
    const dialog = screen.getByRole("dialog", { name: "Solicitar agendamento" });
    const day = within(dialog).getByRole("combobox", { name: "Dia de preferência" });
    fireEvent.change(day, { target: { value: "Segunda-feira" } });
    fireEvent.change(within(dialog).getByRole("textbox", { name: "Descrição" }), { target: { value: "Férias" } });
    const send = within(dialog).getByRole("button", { name: "Enviar solicitação" });
    fireEvent.click(send);
    await waitFor(() => expect(day).toHaveAccessibleDescription("Este serviço não atende neste dia."));

    answer = () => jsonResponse({ messages: ["cpf: Cadastre seu CPF no seu perfil para solicitar atendimento."] }, 422);
    fireEvent.click(send);
    expect(await within(notifications()).findByText("Cadastre seu CPF no seu perfil para solicitar atendimento.")).toBeInTheDocument();

    answer = () => new Response("<html>Bad gateway</html>", { status: 502 });
    fireEvent.click(send);
    await waitFor(() => expect(within(notifications()).getAllByText("Erro").length).toBeGreaterThanOrEqual(2));
    expect(screen.getByRole("dialog", { name: "Solicitar agendamento" })).toBeInTheDocument();
  });

  it("cancels after the member confirms, and reads the list again 2 seconds later", async () => {
    let list = [upcoming];
    const api = stubServices({
      [LEGAL_APPOINTMENTS_CALL]: () => jsonResponse(list),
      [CANCEL_LEGAL_CALL]: () => {
        list = [{ ...upcoming, status: "cancelled", situacao: "Cancelado", cancelavel: false }];
        return jsonResponse({ message: "Agendamento cancelado com sucesso!" });
      },
    });
    renderApp({ path: `${BASE}/agendamentos`, station: LEGAL_STATION });
    fireEvent.click(await screen.findByRole("button", { name: "Cancelar" }));
    const confirm = screen.getByRole("dialog", { name: "Cancelar agendamento" });
    expect(within(confirm).getByText("Deseja cancelar este agendamento?")).toBeInTheDocument();
    fireEvent.click(within(confirm).getByRole("button", { name: "Sim, cancelar" }));

    expect(await screen.findByText("Agendamento cancelado com sucesso!")).toBeInTheDocument();
    expect(api.bodySentTo(CANCEL_LEGAL_CALL)).toEqual({ escritorioId: 2, appointmentId: 9 });
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    const readsBefore = api.callsTo(LEGAL_APPOINTMENTS_CALL).length;
    // Not at once: the spec reloads 2 seconds after.
    expect(screen.getByRole("button", { name: "Cancelar" })).toBeInTheDocument();
    await waitFor(() => expect(api.callsTo(LEGAL_APPOINTMENTS_CALL).length).toBe(readsBefore + 1), { timeout: 3500 });
    fireEvent.click(await screen.findByRole("button", { name: "Histórico de atendimentos" }));
    expect(within(screen.getByRole("list", { name: "Histórico de atendimentos" })).getByText("Cancelado")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Cancelar" })).not.toBeInTheDocument();
  });

  it("shows a refused cancel's first message, else 'Erro ao cancelar agendamento'", async () => {
    let answer = () => jsonResponse({ messages: ["O agendamento só pode ser cancelado com mais de 48 horas de antecedência."] }, 409);
    const api = stubServices({
      [LEGAL_APPOINTMENTS_CALL]: () => jsonResponse([requested]),
      [CANCEL_LEGAL_CALL]: () => answer(),
    });
    renderApp({ path: `${BASE}/agendamentos`, station: LEGAL_STATION });
    fireEvent.click(await screen.findByRole("button", { name: "Cancelar" }));
    fireEvent.click(screen.getByRole("button", { name: "Sim, cancelar" }));
    expect(await within(notifications()).findByText("O agendamento só pode ser cancelado com mais de 48 horas de antecedência.")).toBeInTheDocument();
    expect(api.bodySentTo(CANCEL_LEGAL_CALL)).toEqual({ escritorioId: null, appointmentId: 10 });

    answer = () => new Response("", { status: 500 });
    fireEvent.click(screen.getByRole("button", { name: "Cancelar" }));
    fireEvent.click(screen.getByRole("button", { name: "Sim, cancelar" }));
    expect(await within(notifications()).findByText("Erro ao cancelar agendamento")).toBeInTheDocument();
  });
});

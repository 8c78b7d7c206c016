import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { DESK_NOT_FOUND, DESK_READ_ONLY_NOTE } from "@/features/staff/components/desk-page";
import { APPOINTMENT_CONFIRMED } from "@/features/staff/components/desk-confirm-dialog";
import { COPAY_RECORDED } from "@/features/staff/components/desk-copay-dialog";
import { CASE_RECORDED, CASE_UPDATED, HTTPS_ONLY } from "@/features/staff/components/desk-cases";
import { NEWS_PUBLISHED } from "@/features/staff/components/desk-news";
import {
  buildDeskAppointment,
  buildDeskCase,
  buildDeskGrant,
  buildDeskSuggestion,
  deskPage,
  stubDeskConsole,
} from "@/features/staff/testing/desk-fixtures";
import { renderOps } from "@/features/staff/testing/ops-fixtures";
import { jsonResponse } from "@/testing/fixtures";

const LEGAL = "/ops/desk/1/legal";
const APPOINTMENTS = "GET /api/ops/stations/1/desk/legal/appointments?page=1&per_page=20";
const CONFIRMED_ONLY = "GET /api/ops/stations/1/desk/legal/appointments?status=confirmed&page=1&per_page=20";
const OFFICES = "GET /api/ops/stations/1/desk/legal/offices";
const CONFIRM = "POST /api/ops/desk/appointments/12/confirm";
const CANCEL = "POST /api/ops/desk/appointments/12/cancel";
const OFFICE = { id: 2, name: "Alves & Lima Advogados" };

const requested = buildDeskAppointment();
const confirmed = buildDeskAppointment({
  id: 13,
  status: "confirmed",
  description: "Rescisão",
  scheduled_at: "2026-12-10T14:00:00Z",
  office: OFFICE,
});

function card(name: RegExp) {
  return screen.findByRole("article", { name });
}

describe("the desk's requests", () => {
  it("lists the requests with their times on the station's clock", async () => {
    stubDeskConsole({ [APPOINTMENTS]: deskPage("appointments", [requested, confirmed]) });
    await renderOps(LEGAL);

    expect(await screen.findByRole("heading", { level: 1, name: "Consultoria jurídica · Clube Filia Demo" })).toBeInTheDocument();
    expect(screen.getByRole("tab", { name: "Solicitações" })).toHaveAttribute("aria-selected", "true");
    expect((await screen.findAllByRole("tab")).map((tab) => tab.textContent)).toEqual(["Solicitações", "Processos", "Notícias", "Importações"]);
    const first = await card(/Nº 12 · Membro Demo/);
    expect(within(first).getByText("Aguardando confirmação")).toBeInTheDocument();
    expect(within(first).getByText("529.982.247-25")).toBeInTheDocument();
    expect(within(first).getByText("Quinta-feira")).toBeInTheDocument();
    expect(within(first).getByText("Dúvida sobre férias")).toBeInTheDocument();
    expect(within(first).getAllByRole("button").map((button) => button.textContent)).toEqual(["Confirmar", "Cancelar"]);
    // 14:00 UTC is 10:00 in Manaus.
    const second = await card(/Nº 13/);
    expect(within(second).getByText("10/12/2026 10:00")).toBeInTheDocument();
    expect(within(second).getByText("Alves & Lima Advogados")).toBeInTheDocument();
    expect(within(second).getAllByRole("button").map((button) => button.textContent)).toEqual([
      "Reagendar",
      "Concluído",
      "Não compareceu",
      "Cancelar",
    ]);
    expect(screen.getByText(/2 solicitações · datas marcadas no horário da estação \(America\/Manaus\)/)).toBeInTheDocument();
  });

  it("confirms a request at an hour of the station's clock with its office", async () => {
    const api = stubDeskConsole({
      [APPOINTMENTS]: deskPage("appointments", [requested]),
      [OFFICES]: () => jsonResponse([OFFICE]),
      [CONFIRM]: () => jsonResponse(buildDeskAppointment({ status: "confirmed", scheduled_at: "2026-12-03T13:00:00Z", office: OFFICE })),
    });
    await renderOps(LEGAL);
    fireEvent.click(within(await card(/Nº 12/)).getByRole("button", { name: "Confirmar" }));

    const dialog = await screen.findByRole("dialog", { name: "Confirmar o agendamento 12" });
    // The desk's only office is the one that attends.
    await waitFor(() => expect(within(dialog).getByLabelText("Escritório")).toHaveValue("2"));
    fireEvent.click(within(dialog).getByRole("button", { name: "Confirmar agendamento" }));
    expect(within(dialog).getAllByText("Esse campo é obrigatório")).toHaveLength(2);
    expect(api.callsTo(CONFIRM)).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText("Data"), { target: { value: "2026-12-03" } });
    fireEvent.change(within(dialog).getByLabelText("Horário"), { target: { value: "09:00" } });
    expect(within(dialog).getByText("Horário da estação (America/Manaus)")).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole("button", { name: "Confirmar agendamento" }));

    await waitFor(() => expect(api.callsTo(CONFIRM)).toHaveLength(1));
    expect(api.bodySentTo(CONFIRM)).toEqual({ scheduled_at: "2026-12-03T09:00:00-04:00", office_id: 2 });
    expect(await screen.findByText(APPOINTMENT_CONFIRMED)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
  });

  it("re-schedules a confirmed one from its date and office on the station's clock", async () => {
    const RESCHEDULE = "POST /api/ops/desk/appointments/13/confirm";
    const api = stubDeskConsole({
      [APPOINTMENTS]: deskPage("appointments", [confirmed]),
      [OFFICES]: () => jsonResponse([OFFICE, { id: 3, name: "Lima Associados" }]),
      [RESCHEDULE]: () => jsonResponse(confirmed),
    });
    await renderOps(LEGAL);
    fireEvent.click(within(await card(/Nº 13/)).getByRole("button", { name: "Reagendar" }));
    const dialog = await screen.findByRole("dialog", { name: "Reagendar o agendamento 13" });
    expect(within(dialog).getByLabelText("Data")).toHaveValue("2026-12-10");
    expect(within(dialog).getByLabelText("Horário")).toHaveValue("10:00");
    await screen.findByRole("option", { name: "Lima Associados" });
    expect(within(dialog).getByLabelText("Escritório")).toHaveValue("2");
    fireEvent.change(within(dialog).getByLabelText("Horário"), { target: { value: "15:30" } });
    fireEvent.change(within(dialog).getByLabelText("Escritório"), { target: { value: "" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Reagendar" }));
    await waitFor(() => expect(api.callsTo(RESCHEDULE)).toHaveLength(1));
    expect(api.bodySentTo(RESCHEDULE)).toEqual({ scheduled_at: "2026-12-10T15:30:00-04:00", office_id: null });
  });

  it("shows the API's refusal in the dialog", async () => {
    stubDeskConsole({
      [APPOINTMENTS]: deskPage("appointments", [requested]),
      [OFFICES]: () => jsonResponse([OFFICE, { id: 3, name: "Lima Associados" }]),
      [CONFIRM]: () => jsonResponse({ messages: ["scheduled_at: A data deve ser futura."] }, 422),
    });
    await renderOps(LEGAL);
    fireEvent.click(within(await card(/Nº 12/)).getByRole("button", { name: "Confirmar" }));
    const dialog = await screen.findByRole("dialog", { name: "Confirmar o agendamento 12" });
    await screen.findByRole("option", { name: "Lima Associados" });
    // Two offices: none is chosen for staff.
    expect(within(dialog).getByLabelText("Escritório")).toHaveValue("");
    fireEvent.change(within(dialog).getByLabelText("Data"), { target: { value: "2026-11-01" } });
    fireEvent.change(within(dialog).getByLabelText("Horário"), { target: { value: "09:00" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Confirmar agendamento" }));

    expect(await within(dialog).findByRole("alert")).toHaveTextContent("scheduled_at: A data deve ser futura.");
    expect(screen.getByRole("dialog")).toBeInTheDocument();
  });

  it("cancels a request after asking", async () => {
    const api = stubDeskConsole({
      [APPOINTMENTS]: deskPage("appointments", [requested]),
      [CANCEL]: () => jsonResponse(buildDeskAppointment({ status: "cancelled", cancelled_by: "staff" })),
    });
    await renderOps(LEGAL);
    fireEvent.click(within(await card(/Nº 12/)).getByRole("button", { name: "Cancelar" }));
    const dialog = await screen.findByRole("dialog", { name: "Cancelar o agendamento 12?" });
    expect(dialog).toHaveTextContent("O membro recebe um e-mail avisando do cancelamento.");
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancelar agendamento" }));
    await waitFor(() => expect(api.callsTo(CANCEL)).toHaveLength(1));
    expect(await screen.findByText("Agendamento cancelado.")).toBeInTheDocument();
  });

  it("says when the state no longer allows the action", async () => {
    stubDeskConsole({
      [APPOINTMENTS]: deskPage("appointments", [requested]),
      [CANCEL]: () => jsonResponse({ messages: ["Este agendamento não está em um estado que permita esta ação."] }, 409),
    });
    await renderOps(LEGAL);
    fireEvent.click(within(await card(/Nº 12/)).getByRole("button", { name: "Cancelar" }));
    fireEvent.click(within(await screen.findByRole("dialog")).getByRole("button", { name: "Cancelar agendamento" }));
    expect(await screen.findByText("Este agendamento não está em um estado que permita esta ação.")).toBeInTheDocument();
  });

  it("filters by state and lets a viewer only read", async () => {
    const api = stubDeskConsole(
      { [APPOINTMENTS]: deskPage("appointments", [requested]), [CONFIRMED_ONLY]: deskPage("appointments", []) },
      { desks: [buildDeskGrant({ can_act: false })] },
    );
    await renderOps(LEGAL);
    expect(await card(/Nº 12/)).toBeInTheDocument();
    expect(screen.getByRole("note")).toHaveTextContent(DESK_READ_ONLY_NOTE);
    expect(screen.queryByRole("button", { name: "Confirmar" })).not.toBeInTheDocument();

    fireEvent.change(screen.getByLabelText("Situação"), { target: { value: "confirmed" } });
    expect(await screen.findByText("Nenhuma solicitação com este filtro.")).toBeInTheDocument();
    expect(api.callsTo(CONFIRMED_ONLY)).toHaveLength(1);
  });

  it("records a done health appointment's co-payment", async () => {
    const HEALTH = "GET /api/ops/stations/1/desk/health/appointments?page=1&per_page=20";
    const COPAY = "POST /api/ops/desk/appointments/21/copay";
    const done = buildDeskAppointment({
      id: 21,
      service: "dental",
      phone: "11987654321",
      status: "done",
      scheduled_at: "2026-11-20T13:00:00Z",
    });
    const api = stubDeskConsole({
      [HEALTH]: deskPage("appointments", [done, buildDeskAppointment({ id: 22, service: "nutritionist", status: "done", copay: { amount_cents: 8000, cashback_cents: 4000 } })]),
      [COPAY]: () => jsonResponse({ messages: ["Coparticipação já registrada."] }, 409),
    });
    await renderOps("/ops/desk/1/health");
    expect((await screen.findAllByRole("tab")).map((tab) => tab.textContent)).toEqual(["Solicitações", "Importações"]);
    const first = await card(/Nº 21/);
    expect(within(first).getByText("Odontologia")).toBeInTheDocument();
    expect(within(first).getByText("(11) 9.8765-4321")).toBeInTheDocument();
    const second = await card(/Nº 22/);
    expect(within(second).getByText("R$ 80,00 (cashback de R$ 40,00)")).toBeInTheDocument();
    expect(within(second).queryByRole("button")).not.toBeInTheDocument();

    fireEvent.click(within(first).getByRole("button", { name: "Registrar coparticipação" }));
    const dialog = await screen.findByRole("dialog", { name: "Registrar coparticipação do agendamento 21" });
    fireEvent.change(within(dialog).getByLabelText("Valor da coparticipação"), { target: { value: "8000" } });
    expect(within(dialog).getByLabelText("Valor da coparticipação")).toHaveValue("R$ 80,00");
    expect(within(dialog).getByText("Cashback ao membro: R$ 40,00, liberado em 90 dias.")).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole("button", { name: "Registrar" }));
    await waitFor(() => expect(api.callsTo(COPAY)).toHaveLength(1));
    expect(api.bodySentTo(COPAY)).toEqual({ amount_cents: 8000 });
    expect(await within(dialog).findByRole("alert")).toHaveTextContent("Coparticipação já registrada.");
    expect(screen.queryByText(COPAY_RECORDED)).not.toBeInTheDocument();
  });
});

describe("the desk's cases", () => {
  const ALL = "GET /api/ops/stations/1/desk/legal/cases?page=1&per_page=20";
  const BY_CPF = "GET /api/ops/stations/1/desk/legal/cases?cpf=52998224725&page=1&per_page=20";
  const CREATE = "POST /api/ops/stations/1/desk/legal/cases";
  const UPDATE = "PUT /api/ops/desk/cases/3";

  it("finds a CPF's cases and records a new one", async () => {
    const api = stubDeskConsole({
      [ALL]: deskPage("cases", []),
      [BY_CPF]: deskPage("cases", [buildDeskCase()]),
      [CREATE]: () => jsonResponse(buildDeskCase({ id: 4 }), 201),
    });
    await renderOps(`${LEGAL}?aba=processos`);
    expect(await screen.findByText("Nenhum processo registrado neste atendimento.")).toBeInTheDocument();

    const search = screen.getByRole("search", { name: "Buscar processos por CPF" });
    fireEvent.change(within(search).getByLabelText("CPF"), { target: { value: "52998224725" } });
    expect(within(search).getByLabelText("CPF")).toHaveValue("529.982.247-25");
    fireEvent.click(within(search).getByRole("button", { name: "Buscar" }));
    const table = await screen.findByRole("table", { name: "Processos" });
    expect(within(table).getByRole("link", { name: "0001234-56.2025.5.02.0001" })).toHaveAttribute("href", "https://pje.trt2.jus.br/processo/1");
    expect(within(table).getByText("R$ 12.500,00")).toBeInTheDocument();
    expect(within(table).getByText("14/03/2025")).toBeInTheDocument();

    const form = screen.getByRole("region", { name: "Registrar processo" });
    fireEvent.change(within(form).getByLabelText("CPF"), { target: { value: "11111111111" } });
    fireEvent.change(within(form).getByLabelText("Link do processo"), { target: { value: "http://tj.example/1" } });
    fireEvent.click(within(form).getByRole("button", { name: "Registrar processo" }));
    expect(within(form).getByText("CPF inválido")).toBeInTheDocument();
    expect(within(form).getByText("Esse campo é obrigatório")).toBeInTheDocument();
    expect(within(form).getByText(HTTPS_ONLY)).toBeInTheDocument();

    fireEvent.change(within(form).getByLabelText("CPF"), { target: { value: "52998224725" } });
    fireEvent.change(within(form).getByLabelText("Número do processo"), { target: { value: " 0009999-11.2026.8.26.0100 " } });
    fireEvent.change(within(form).getByLabelText("Tipo"), { target: { value: "Cível" } });
    fireEvent.change(within(form).getByLabelText("Data do protocolo"), { target: { value: "2026-10-01" } });
    fireEvent.change(within(form).getByLabelText("Valor da causa"), { target: { value: "500000" } });
    fireEvent.change(within(form).getByLabelText("Link do processo"), { target: { value: "https://tj.example/1" } });
    fireEvent.click(within(form).getByLabelText("Causa coletiva (aparece em 'Causas coletivas')"));
    fireEvent.click(within(form).getByRole("button", { name: "Registrar processo" }));

    await waitFor(() => expect(api.callsTo(CREATE)).toHaveLength(1));
    expect(api.bodySentTo(CREATE)).toEqual({
      cpf: "52998224725",
      case_number: "0009999-11.2026.8.26.0100",
      kind: "Cível",
      situation: "",
      filed_on: "2026-10-01",
      court: "",
      title: "",
      claim_cents: 500000,
      link: "https://tj.example/1",
      collective: true,
    });
    expect(await screen.findByText(CASE_RECORDED)).toBeInTheDocument();
  });

  it("edits a case", async () => {
    const api = stubDeskConsole({
      [ALL]: deskPage("cases", [buildDeskCase()]),
      [UPDATE]: () => jsonResponse(buildDeskCase({ situation: "Arquivado" })),
    });
    await renderOps(`${LEGAL}?aba=processos`);
    fireEvent.click(await screen.findByRole("button", { name: "Editar o processo 0001234-56.2025.5.02.0001" }));
    const form = await screen.findByRole("region", { name: "Editar processo 0001234-56.2025.5.02.0001" });
    expect(within(form).getByLabelText("CPF")).toHaveValue("529.982.247-25");
    expect(within(form).getByLabelText("Valor da causa")).toHaveValue("R$ 12.500,00");
    fireEvent.change(within(form).getByLabelText("Situação"), { target: { value: "Arquivado" } });
    fireEvent.click(within(form).getByRole("button", { name: "Salvar alterações" }));
    await waitFor(() => expect(api.callsTo(UPDATE)).toHaveLength(1));
    expect(api.bodySentTo(UPDATE)).toMatchObject({ cpf: "52998224725", situation: "Arquivado", claim_cents: 1250000, collective: false });
    expect(await screen.findByText(CASE_UPDATED)).toBeInTheDocument();
    expect(await screen.findByRole("region", { name: "Registrar processo" })).toBeInTheDocument();
  });
});

describe("the political desk", () => {
  it("lists the members' suggestions and publishes news with the desk's tag", async () => {
    const NEWS = "POST /api/ops/stations/1/news";
    const api = stubDeskConsole({
      "GET /api/ops/stations/1/desk/political/suggestions?page=1&per_page=20": deskPage("suggestions", [
        buildDeskSuggestion(),
        buildDeskSuggestion({ id: 5, member: null, description: "Transporte." }),
      ]),
      [NEWS]: () => jsonResponse({ id: 40 }, 201),
    });
    await renderOps("/ops/desk/1/political");
    expect((await screen.findAllByRole("tab")).map((tab) => tab.textContent)).toEqual(["Sugestões", "Notícias"]);
    expect(await screen.findByRole("article", { name: "Nº 4 · Membro Demo" })).toHaveTextContent("Debater a reforma da previdência dos servidores.");
    expect(screen.getByRole("article", { name: "Nº 5 · Membro sem cadastro" })).toBeInTheDocument();

    fireEvent.click(screen.getByRole("tab", { name: "Notícias" }));
    const form = await screen.findByRole("region", { name: "Publicar notícia" });
    fireEvent.click(within(form).getByRole("button", { name: "Publicar notícia" }));
    expect(within(form).getAllByText("Esse campo é obrigatório")).toHaveLength(2);
    fireEvent.change(within(form).getByLabelText("Título"), { target: { value: "Assembleia geral" } });
    fireEvent.change(within(form).getByLabelText("Subtítulo"), { target: { value: "Dia 10" } });
    fireEvent.change(within(form).getByLabelText("Texto"), { target: { value: "<p>Participe.</p>" } });
    fireEvent.click(within(form).getByRole("button", { name: "Publicar notícia" }));
    await waitFor(() => expect(api.callsTo(NEWS)).toHaveLength(1));
    expect(api.bodySentTo(NEWS)).toEqual({ title: "Assembleia geral", subtitle: "Dia 10", body: "<p>Participe.</p>", tags: [13755] });
    expect(await screen.findByText(NEWS_PUBLISHED)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText("Título")).toHaveValue(""));
  });
});

describe("a desk out of reach", () => {
  it("says so for a desk the staff member does not reach", async () => {
    stubDeskConsole({}, { desks: [buildDeskGrant({ desk: "health" })] });
    await renderOps(LEGAL);
    expect(await screen.findByRole("heading", { level: 1, name: DESK_NOT_FOUND })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Ver os atendimentos" })).toHaveAttribute("href", "/ops/desk");
  });
});

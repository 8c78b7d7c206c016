import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { Research, ResearchQuestion } from "@/types/api";
import { activityCall, buildActivity, homeHandlers } from "@/features/activities/testing/activity-fixtures";
import {
  answerCall,
  answerFileCall,
  buildPollResults,
  buildResearch,
  buildResearchAnswer,
  buildResearchQuestion,
  buildResearchResult,
  pollResultsCall,
  researchCall,
  SURVEY_SUBMIT_CALL,
} from "@/features/activities/testing/research-fixtures";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { buildWalletBalance, jsonResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { stubApi, type ApiHandler } from "@/testing/stub-api";

const loadAnimation = vi.hoisted(() => vi.fn(() => ({ destroy: () => undefined })));
vi.mock("lottie-web/build/player/lottie_light", () => ({ default: { loadAnimation } }));

const BALANCE = "GET /api/users-points/1";
const SURVEY_PATH = "/homepage/survey/5/12";
const REQUIRED = "Esse campo é obrigatório";

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  signIn();
});

const SINGLE = buildResearchQuestion({ id: 1, question: "Como você avalia o clube?", labels: ["Ótimo", "Bom", "Ruim"] });
const MULTIPLE = buildResearchQuestion({
  id: 2,
  type_id: 2,
  required: false,
  question: "Quais benefícios você usou?",
  labels: ["Saúde", "Jurídico"],
});
const FREE_TEXT = buildResearchQuestion({ id: 3, type_id: 3, question: "O que podemos melhorar?", labels: [] });

const survey = (overrides: Partial<Research> = {}) =>
  buildResearch({ type_id: 8, name: "Pesquisa de satisfação", questions: [SINGLE, MULTIPLE, FREE_TEXT], ...overrides });

/** The server saves whatever is sent, in attempt 70. */
function saving(questions: readonly ResearchQuestion[]): Record<string, ApiHandler> {
  return Object.fromEntries(
    questions.map(({ id }) => [
      answerCall(5, id),
      (body: unknown) => jsonResponse(buildResearchAnswer({ question_id: id, ...(body as object) })),
    ]),
  );
}

function stubSurvey(research: Research, handlers: Record<string, ApiHandler> = {}) {
  return stubApi({
    [BALANCE]: () => jsonResponse(buildWalletBalance()),
    [activityCall(12)]: () => jsonResponse(buildActivity({ type_id: research.type_id, name: research.name })),
    [researchCall(5)]: () => jsonResponse(research),
    ...homeHandlers(),
    ...saving(research.questions),
    ...handlers,
  });
}

async function openSurvey() {
  const rendered = renderApp({ path: SURVEY_PATH });
  await screen.findByRole("heading", { level: 1 });
  return rendered;
}

const click = (name: string) => fireEvent.click(screen.getByRole("button", { name }));
const toasts = () => screen.getByRole("region", { name: "Notificações" });
/** The survey answered up to its last step (the free text), which is left to the test. */
const atLastStep = () =>
  survey({ attempt_id: 70, answers: [buildResearchAnswer({ question_id: 1, options: [11] }), buildResearchAnswer({ question_id: 2 })] });

describe("survey", () => {
  it("shows one question per step with its progress, 'Anterior' and 'Próximo'", async () => {
    const api = stubSurvey(survey());
    await openSurvey();

    expect(screen.getByText("1 de 3")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Anterior" })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole("checkbox", { name: "Bom" }));
    click("Próximo");

    expect(await screen.findByText("2 de 3")).toBeInTheDocument();
    expect(api.bodiesOf(answerCall(5, 1))).toEqual([{ options: [12], text: null, other: null }]);
    expect(screen.getByRole("group", { name: "Quais benefícios você usou?" })).toBeInTheDocument();

    click("Anterior");
    expect(screen.getByText("1 de 3")).toBeInTheDocument();
    expect(screen.getByRole("checkbox", { name: "Bom" })).toBeChecked();
  });

  it("requires an answer to a required question before saving it", async () => {
    const api = stubSurvey(survey());
    await openSurvey();

    click("Próximo");
    expect(screen.getByText(REQUIRED)).toBeInTheDocument();
    expect(screen.getByText("1 de 3")).toBeInTheDocument();
    expect(api.callsTo(answerCall(5, 1))).toHaveLength(0);
  });

  it("takes one option only on a single choice question", async () => {
    stubSurvey(survey());
    await openSurvey();

    fireEvent.click(screen.getByRole("checkbox", { name: "Ótimo" }));
    fireEvent.click(screen.getByRole("checkbox", { name: "Ruim" }));
    expect(screen.getByText("Apenas uma opção por pergunta")).toBeInTheDocument();
    expect(screen.getByRole("checkbox", { name: "Ótimo" })).toBeChecked();
    expect(screen.getByRole("checkbox", { name: "Ruim" })).not.toBeChecked();
  });

  it("resumes at the first question without a saved answer, with the answers given", async () => {
    stubSurvey(survey({ attempt_id: 70, answers: [buildResearchAnswer({ question_id: 1, options: [11] })] }));
    await openSurvey();

    expect(screen.getByText("2 de 3")).toBeInTheDocument();
    click("Anterior");
    expect(screen.getByRole("checkbox", { name: "Ótimo" })).toBeChecked();
  });

  it("counts the free text's characters and requires it", async () => {
    stubSurvey(atLastStep());
    await openSurvey();

    expect(screen.getByText("3 de 3")).toBeInTheDocument();
    click("Enviar");
    expect(screen.getByText(REQUIRED)).toBeInTheDocument();
    fireEvent.change(screen.getByRole("textbox", { name: "O que podemos melhorar?" }), { target: { value: "Mais eventos" } });
    expect(screen.getByText("12/600")).toBeInTheDocument();
  });

  it("saves the last step, submits, then thanks the member with the feedback and leads home", async () => {
    let answer: (response: Response) => void = () => undefined;
    const answered = new Promise<Response>((resolve) => (answer = resolve));
    const api = stubSurvey(atLastStep(), { [SURVEY_SUBMIT_CALL]: () => answered });
    const { page } = await openSurvey();

    fireEvent.change(screen.getByRole("textbox", { name: "O que podemos melhorar?" }), { target: { value: "Mais eventos" } });
    click("Enviar");
    expect(await screen.findByRole("button", { name: "Enviando" })).toBeDisabled();
    expect(api.bodiesOf(answerCall(5, 3))).toEqual([{ options: [], text: "Mais eventos", other: null }]);
    expect(api.bodiesOf(SURVEY_SUBMIT_CALL)).toEqual([{ action_id: 12, research: 5, attempt_id: 70 }]);
    answer(
      jsonResponse(
        buildResearchResult({ won: null, correct_answer_percentage: null, feedback: { feedback: "<p>Obrigado!</p>", feedback_lottie_id: null } }),
        201,
      ),
    );

    const dialog = await screen.findByRole("dialog", { name: "Pesquisa de satisfação" });
    expect(within(dialog).getByText("Obrigado!")).toBeInTheDocument();
    expect(within(toasts()).getByText("Sucesso")).toBeInTheDocument();
    expect(within(toasts()).getByText("Operação realizada com sucesso")).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole("link", { name: "Página inicial" }));
    expect(page.location.pathname).toBe("/homepage");
  });

  it("shows one toast per message the server gives when the submission fails", async () => {
    stubSurvey(atLastStep(), {
      [SURVEY_SUBMIT_CALL]: () => jsonResponse({ messages: ["Uma pergunta não foi respondida!", "Opção inválida."] }, 422),
    });
    await openSurvey();

    fireEvent.change(screen.getByRole("textbox", { name: "O que podemos melhorar?" }), { target: { value: "Nada" } });
    click("Enviar");
    expect(await within(toasts()).findByText("Uma pergunta não foi respondida!")).toBeInTheDocument();
    expect(within(toasts()).getByText("Opção inválida.")).toBeInTheDocument();
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Enviar" })).toBeEnabled();
  });

  it("says 'Erro interno no servidor' when the failure cannot be read", async () => {
    stubSurvey(atLastStep(), { [SURVEY_SUBMIT_CALL]: () => new Response("<html>Bad gateway</html>", { status: 502 }) });
    await openSurvey();

    fireEvent.change(screen.getByRole("textbox", { name: "O que podemos melhorar?" }), { target: { value: "Nada" } });
    click("Enviar");
    expect(await within(toasts()).findByText("Erro interno no servidor")).toBeInTheDocument();
  });

  it("refuses a personality test with a question left unanswered", async () => {
    // Its optional multiple choice (question 2) was left empty.
    const api = stubSurvey({ ...atLastStep(), type_id: 12 });
    await openSurvey();

    fireEvent.change(screen.getByRole("textbox", { name: "O que podemos melhorar?" }), { target: { value: "Nada" } });
    click("Enviar");
    expect(await within(toasts()).findByText("Erro no envio")).toBeInTheDocument();
    expect(within(toasts()).getByText("Uma pergunta não foi respondida!")).toBeInTheDocument();
    expect(api.callsTo(SURVEY_SUBMIT_CALL)).toHaveLength(0);
  });

  it("shows a poll's results chart once answered (type 10)", async () => {
    const poll = buildResearch({ type_id: 10, name: "Enquete", questions: [SINGLE] });
    stubSurvey(poll, {
      [SURVEY_SUBMIT_CALL]: () => jsonResponse(buildResearchResult({ won: null }), 201),
      [pollResultsCall(5)]: () => jsonResponse(buildPollResults()),
    });
    await openSurvey();

    fireEvent.click(screen.getByRole("checkbox", { name: "Ótimo" }));
    click("Enviar");
    const dialog = await screen.findByRole("dialog", { name: "Enquete" });
    const chart = await within(dialog).findByRole("region", { name: "Resultado da enquete" });
    expect(within(chart).getByText("12 respostas")).toBeInTheDocument();
    expect(within(chart).getByText("7 (58%)")).toBeInTheDocument();
  });

  it("offers 'Outro' with its text on a question that has it", async () => {
    const withOther = buildResearchQuestion({ id: 1, type_id: 4, question: "Por onde?", labels: ["E-mail", "SMS"] });
    const api = stubSurvey(buildResearch({ type_id: 7, name: "Contato", questions: [withOther] }), {
      [SURVEY_SUBMIT_CALL]: () => jsonResponse(buildResearchResult({ won: null }), 201),
    });
    await openSurvey();

    fireEvent.click(screen.getByRole("checkbox", { name: "Outro" }));
    click("Enviar");
    expect(screen.getByText(REQUIRED)).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText("Especifique"), { target: { value: "Telegram" } });
    click("Enviar");
    await screen.findByRole("dialog", { name: "Contato" });
    expect(api.bodiesOf(answerCall(5, 1))).toEqual([{ options: [], text: null, other: "Telegram" }]);
  });

  it("checks a file answer's size before uploading it", async () => {
    const fileQuestion = buildResearchQuestion({ id: 1, type_id: 7, question: "Envie o comprovante", labels: [] });
    const api = stubSurvey(buildResearch({ type_id: 8, name: "Comprovantes", questions: [fileQuestion] }), {
      [answerFileCall(5, 1)]: () => jsonResponse(buildResearchAnswer({ file: { name: "comprovante.pdf" } })),
      [SURVEY_SUBMIT_CALL]: () => jsonResponse(buildResearchResult({ won: null }), 201),
    });
    await openSurvey();
    const input = screen.getByLabelText(/^Envie o comprovante/);

    const huge = new File(["x"], "grande.pdf", { type: "application/pdf" });
    Object.defineProperty(huge, "size", { value: 10_000_001 });
    fireEvent.change(input, { target: { files: [huge] } });
    click("Enviar");
    expect(screen.getByText("Tamanho ou formato inválido")).toBeInTheDocument();
    expect(api.callsTo(answerFileCall(5, 1))).toHaveLength(0);

    fireEvent.change(input, { target: { files: [new File(["%PDF"], "comprovante.pdf", { type: "application/pdf" })] } });
    click("Enviar");
    await screen.findByRole("dialog", { name: "Comprovantes" });
    const upload = api.callsTo(answerFileCall(5, 1))[0];
    expect(upload?.headers.get("Authorization")).toBe("Bearer test-token");
    await waitFor(() => expect(api.callsTo(SURVEY_SUBMIT_CALL)).toHaveLength(1));
  });
});

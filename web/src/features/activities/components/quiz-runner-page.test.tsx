import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { Research, ResearchAnswer, ResearchResult } from "@/types/api";
import { activityCall, buildActivity, homeHandlers } from "@/features/activities/testing/activity-fixtures";
import {
  answerCall,
  buildResearch,
  buildResearchAnswer,
  buildResearchQuestion,
  buildResearchResult,
  QUIZ_SUBMIT_CALL,
  researchCall,
} from "@/features/activities/testing/research-fixtures";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { buildWalletBalance, jsonResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { stubApi, type ApiHandler } from "@/testing/stub-api";

const loadAnimation = vi.hoisted(() => vi.fn(() => ({ destroy: () => undefined })));
vi.mock("lottie-web/build/player/lottie_light", () => ({ default: { loadAnimation } }));

const BALANCE = "GET /api/users-points/1";
const RUNNER_PATH = "/homepage/quizzes/quiz?research=5&action=12";
const WRONG = "Resposta errada, tente novamente.";
const RIGHT = "Resposta correta!";

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  signIn();
});

/** Three questions; the right options are "B" (12), "E" (22) and "H" (32). */
const QUESTIONS = [
  buildResearchQuestion({ id: 1, question: "Primeira pergunta", labels: ["A", "B", "C"] }),
  buildResearchQuestion({ id: 2, question: "Segunda pergunta", labels: ["D", "E", "F"] }),
  buildResearchQuestion({ id: 3, question: "Terceira pergunta", labels: ["G", "H", "I"] }),
];
const RIGHT_OPTIONS: Record<number, number> = { 1: 12, 2: 22, 3: 32 };

const quiz = (overrides: Partial<Research> = {}) => buildResearch({ questions: QUESTIONS, ...overrides });

const right = (questionId: number): ResearchAnswer =>
  buildResearchAnswer({
    question_id: questionId,
    options: [RIGHT_OPTIONS[questionId] ?? 0],
    verdict: { correct: true, message: RIGHT, explanation: `Explicação ${questionId}` },
  });

/** The server's judge: the answer's verdict, and the options judged wrong so far. */
function judge(): Record<string, ApiHandler> {
  const tried: Record<number, number[]> = {};
  return Object.fromEntries(
    QUESTIONS.map(({ id }) => [
      answerCall(5, id),
      (body: unknown) => {
        const [chosen = 0] = (body as { options: number[] }).options;
        const correct = chosen === RIGHT_OPTIONS[id];
        if (!correct) tried[id] = [...(tried[id] ?? []), chosen];
        return jsonResponse(
          buildResearchAnswer({
            question_id: id,
            options: [chosen],
            verdict: { correct, message: correct ? RIGHT : WRONG, explanation: correct ? `Explicação ${id}` : null },
            tried: tried[id] ?? [],
          }),
        );
      },
    ]),
  );
}

function stubQuiz(research: Research, handlers: Record<string, ApiHandler> = {}) {
  return stubApi({
    [BALANCE]: () => jsonResponse(buildWalletBalance()),
    [activityCall(12)]: () => jsonResponse(buildActivity({ feedback_lottie_id: null })),
    [researchCall(5)]: () => jsonResponse(research),
    ...homeHandlers(),
    ...judge(),
    ...handlers,
  });
}

async function start() {
  const rendered = renderApp({ path: RUNNER_PATH });
  fireEvent.click(await screen.findByRole("button", { name: "Iniciar Quiz" }));
  return rendered;
}

const option = (label: string) => screen.getByRole("button", { name: label });
const toasts = () => screen.getByRole("region", { name: "Notificações" });

/** A result with 2 of 3 right at the first try. */
const result = (overrides: Partial<ResearchResult> = {}) =>
  buildResearchResult({
    question_count: 3,
    answered_count: 3,
    correct_count: 2,
    correct_answer_percentage: 2 / 3,
    questions: [
      { question_id: 1, correct: true },
      { question_id: 2, correct: false },
      { question_id: 3, correct: true },
    ],
    ...overrides,
  });

describe("quiz runner", () => {
  it("shows the intro with the question count and the synopsis", async () => {
    stubQuiz(quiz());
    renderApp({ path: RUNNER_PATH });

    expect(await screen.findByRole("heading", { level: 1, name: "Quiz da semana" })).toBeInTheDocument();
    expect(screen.getByText("3 perguntas")).toBeInTheDocument();
    expect(screen.getByText("Três perguntas sobre o clube.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Iniciar Quiz" })).toBeEnabled();
  });

  it("disables a wrong answer and shows the wrong message, then locks the question on the right one", async () => {
    const api = stubQuiz(quiz());
    await start();
    expect(screen.getByText("Pergunta 1 de 3")).toBeInTheDocument();

    fireEvent.click(option("A"));
    expect(await screen.findByText(WRONG)).toBeInTheDocument();
    expect(option("A")).toBeDisabled();
    expect(option("B")).toBeEnabled();
    expect(option("C")).toBeEnabled();
    expect(screen.queryByRole("button", { name: "Próxima" })).not.toBeInTheDocument();

    fireEvent.click(option("B"));
    expect(await screen.findByText(RIGHT)).toBeInTheDocument();
    expect(screen.getByText("Explicação 1")).toBeInTheDocument();
    expect(option("B")).toBeDisabled();
    expect(option("C")).toBeDisabled();
    expect(api.bodiesOf(answerCall(5, 1))).toEqual([
      { options: [11], text: null, other: null },
      { options: [12], text: null, other: null },
    ]);

    fireEvent.click(screen.getByRole("button", { name: "Próxima" }));
    expect(screen.getByText("Pergunta 2 de 3")).toBeInTheDocument();
    expect(screen.getByRole("group", { name: "Segunda pergunta" })).toBeInTheDocument();
  });

  it("resumes at the first question not answered right, with the options tried disabled", async () => {
    const wrongSecond = buildResearchAnswer({
      question_id: 2,
      options: [21],
      verdict: { correct: false, message: WRONG, explanation: null },
      tried: [21],
    });
    stubQuiz(quiz({ attempt_id: 70, answers: [right(1), wrongSecond] }));
    await start();

    expect(screen.getByText("Pergunta 2 de 3")).toBeInTheDocument();
    expect(option("D")).toBeDisabled();
    expect(option("E")).toBeEnabled();
    expect(screen.getByText(WRONG)).toBeInTheDocument();
  });

  it("submits once the last question is right, then shows the server's result and filters it", async () => {
    const api = stubQuiz(quiz({ attempt_id: 70, answers: [right(1), right(2)] }), {
      [QUIZ_SUBMIT_CALL]: () => jsonResponse(result(), 201),
    });
    await start();

    fireEvent.click(option("H"));
    fireEvent.click(await screen.findByRole("button", { name: "Próxima" }));
    expect(await screen.findByRole("heading", { name: "Resultado" })).toBeInTheDocument();
    expect(api.bodiesOf(QUIZ_SUBMIT_CALL)).toEqual([{ action_id: 12, research: 5, attempt_id: 70 }]);
    expect(screen.getByText("2 de 3")).toBeInTheDocument();

    const listed = () => within(screen.getByRole("list", { name: "Perguntas" })).getAllByRole("listitem").map((item) => item.textContent);
    expect(listed()).toEqual(["Primeira perguntaAcertou", "Segunda perguntaErrou", "Terceira perguntaAcertou"]);
    fireEvent.click(screen.getByRole("button", { name: "As que acertei" }));
    expect(screen.getByRole("button", { name: "As que acertei" })).toHaveAttribute("aria-pressed", "true");
    expect(listed()).toEqual(["Primeira perguntaAcertou", "Terceira perguntaAcertou"]);
    fireEvent.click(screen.getByRole("button", { name: "As que errei" }));
    expect(listed()).toEqual(["Segunda perguntaErrou"]);
    fireEvent.click(screen.getByRole("button", { name: "Todas" }));
    expect(listed()).toHaveLength(3);
  });

  it("on 'Finalizar!' after a win, toasts the points and leads home, refreshing the balance", async () => {
    const api = stubQuiz(quiz({ attempt_id: 70, answers: QUESTIONS.map(({ id }) => right(id)) }), {
      [QUIZ_SUBMIT_CALL]: () =>
        jsonResponse(result({ feedback: { feedback: "<p>Muito bem!</p>", feedback_lottie_id: null } }), 201),
    });
    const { page } = await start();

    fireEvent.click(await screen.findByRole("button", { name: "Finalizar!" }));
    expect(within(toasts()).getByText("Parabéns, você completou o Quiz e ganhou 100 pontos")).toBeInTheDocument();
    const dialog = screen.getByRole("dialog", { name: "Quiz da semana" });
    expect(within(dialog).getByText("Muito bem!")).toBeInTheDocument();

    const balanceCalls = api.callsTo(BALANCE).length;
    fireEvent.click(within(dialog).getByRole("link", { name: "Página inicial" }));
    expect(page.location.pathname).toBe("/homepage");
    await waitFor(() => expect(api.callsTo(BALANCE).length).toBeGreaterThan(balanceCalls));
  });

  it("on 'Finalizar!' after a loss, says 'Que pena...' without the points", async () => {
    stubQuiz(quiz({ attempt_id: 70, answers: QUESTIONS.map(({ id }) => right(id)) }), {
      [QUIZ_SUBMIT_CALL]: () => jsonResponse(result({ won: false, earned: false, correct_count: 1 }), 201),
    });
    await start();

    fireEvent.click(await screen.findByRole("button", { name: "Finalizar!" }));
    const dialog = screen.getByRole("dialog", { name: "Que pena..." });
    expect(within(dialog).getByText("Não foi dessa vez")).toBeInTheDocument();
    expect(within(toasts()).queryByText(/Parabéns/)).not.toBeInTheDocument();
  });

  it("says 'Erro interno no servidor' when the submission fails, and lets the member try again", async () => {
    let fail = true;
    stubQuiz(quiz({ attempt_id: 70, answers: QUESTIONS.map(({ id }) => right(id)) }), {
      [QUIZ_SUBMIT_CALL]: () =>
        fail ? jsonResponse({ messages: ["Uma pergunta não foi respondida!"] }, 422) : jsonResponse(result(), 201),
    });
    await start();

    expect(await within(toasts()).findByText("Erro interno no servidor")).toBeInTheDocument();
    fail = false;
    fireEvent.click(screen.getByRole("button", { name: "Iniciar Quiz" }));
    expect(await screen.findByRole("heading", { name: "Resultado" })).toBeInTheDocument();
  });

  it("asks for 'Responder' on a multiple choice question", async () => {
    const multiple = buildResearchQuestion({ id: 4, type_id: 2, required: false, question: "Quais?", labels: ["X", "Y", "Z"] });
    const api = stubQuiz(quiz({ questions: [multiple] }), {
      [answerCall(5, 4)]: () =>
        jsonResponse(
          buildResearchAnswer({
            question_id: 4,
            options: [41, 42],
            // A wrong set may hold right options: the server marks none of them tried.
            verdict: { correct: false, message: WRONG, explanation: null },
            tried: [],
          }),
        ),
    });
    await start();

    // Nothing chosen is no try: the field asks for an answer and nothing is sent.
    fireEvent.click(screen.getByRole("button", { name: "Responder" }));
    expect(await screen.findByText("Esse campo é obrigatório")).toBeInTheDocument();
    expect(api.bodiesOf(answerCall(5, 4))).toEqual([]);

    fireEvent.click(screen.getByRole("checkbox", { name: "X" }));
    fireEvent.click(screen.getByRole("checkbox", { name: "Y" }));
    fireEvent.click(screen.getByRole("button", { name: "Responder" }));
    expect(await screen.findByText(WRONG)).toBeInTheDocument();
    expect(api.bodiesOf(answerCall(5, 4))).toEqual([{ options: [41, 42], text: null, other: null }]);
    expect(screen.getByRole("checkbox", { name: "Y" })).toBeEnabled();
    expect(screen.getByRole("checkbox", { name: "X" })).toBeChecked();
  });

  it("shows the not-found view without a research in the address", async () => {
    stubQuiz(quiz());
    renderApp({ path: "/homepage/quizzes/quiz" });
    expect(await screen.findByText("Erro! Esta atividade não está disponível.")).toBeInTheDocument();
  });
});

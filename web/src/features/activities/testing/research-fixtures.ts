// Quizzes and surveys as the API answers them (docs/api-activities.md, "Quizzes and surveys").
import type {
  PollResults,
  QuizCard,
  Research,
  ResearchAnswer,
  ResearchOption,
  ResearchQuestion,
  ResearchResult,
} from "@/types/api";
import { buildActivityCard } from "@/features/activities/testing/activity-fixtures";

export const researchCall = (id: number) => `GET /api/research/${id}`;
export const answerCall = (researchId: number, questionId: number) => `PUT /api/research/${researchId}/answers/${questionId}`;
export const answerFileCall = (researchId: number, questionId: number) =>
  `POST /api/research/${researchId}/answers/${questionId}/file`;
export const pollResultsCall = (id: number) => `GET /api/research/${id}/results`;
export const QUIZ_SUBMIT_CALL = "POST /api/answer-quiz";
export const SURVEY_SUBMIT_CALL = "POST /api/answer";
/** The quiz list of the demo station (id 7). */
export const QUIZZES_CALL = "GET /api/quizzes/establishment/7";

export function buildResearchOption(overrides: Partial<ResearchOption> = {}): ResearchOption {
  return { id: 1, label: "Opção", color: null, textColor: null, image: null, ...overrides };
}

/** A single choice question (type 1) whose options are `labels`, ids `id * 10 + 1`, `id * 10 + 2`... */
export function buildResearchQuestion(
  { labels = ["Sim", "Não"], ...overrides }: Partial<ResearchQuestion> & { labels?: string[] } = {},
): ResearchQuestion {
  const id = overrides.id ?? 1;
  return {
    id,
    question: `Pergunta ${id}`,
    type_id: 1,
    required: true,
    color: null,
    textColor: null,
    image: null,
    options: labels.map((label, index) => buildResearchOption({ id: id * 10 + index + 1, label })),
    ...overrides,
  };
}

/** Research 5 of activity 12, a quiz with no answer yet unless told otherwise. */
export function buildResearch(overrides: Partial<Research> = {}): Research {
  return {
    id: 5,
    action_id: 12,
    type_id: 6,
    name: "Quiz da semana",
    synopsis: "Três perguntas sobre o clube.",
    points: 100,
    cashback: 120,
    author: "user",
    questions: [buildResearchQuestion()],
    attempt_id: null,
    answers: [],
    last_result: null,
    ...overrides,
  };
}

export function buildResearchAnswer(overrides: Partial<ResearchAnswer> = {}): ResearchAnswer {
  return {
    attempt_id: 70,
    question_id: 1,
    options: [],
    text: null,
    other: null,
    file: null,
    verdict: null,
    tried: [],
    ...overrides,
  };
}

export function buildResearchResult(overrides: Partial<ResearchResult> = {}): ResearchResult {
  return {
    recorded: true,
    attempt_id: 70,
    participation_id: 90,
    action_id: 12,
    research_id: 5,
    question_count: 1,
    answered_count: 1,
    correct_count: 1,
    correct_answer_percentage: 1,
    answer_percentage: 1,
    won: true,
    earned: true,
    points: 100,
    cashback: 120,
    job_id: "job-1",
    feedback: null,
    questions: [{ question_id: 1, correct: true }],
    ...overrides,
  };
}

export function buildQuizCard(overrides: Partial<QuizCard> = {}): QuizCard {
  return {
    ...buildActivityCard(),
    research_id: 5,
    description: "<p>Teste o que você sabe.</p>",
    expiration: "2026-12-31T12:00:00Z",
    question_count: 3,
    ...overrides,
  };
}

export function buildPollResults(overrides: Partial<PollResults> = {}): PollResults {
  return {
    research_id: 5,
    respondents: 12,
    questions: [
      {
        id: 1,
        question: "Qual tema você prefere?",
        options: [
          { id: 11, label: "Educação financeira", count: 5 },
          { id: 12, label: "Saúde", count: 7 },
        ],
      },
    ],
    ...overrides,
  };
}

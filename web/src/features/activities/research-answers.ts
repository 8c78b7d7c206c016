// A research's questions as the member answers them (docs/api-activities.md, "Quizzes and
// surveys"): the question types, the draft a form holds before it is saved, and the checks
// made before sending it, in the server's words. The server checks them all again.
import type { AnswerRequest, ResearchAnswer, ResearchQuestion } from "@/types/api";
import { MESSAGES, maxLength } from "@/lib/validators";

export const SINGLE_CHOICE = 1;
export const MULTIPLE_CHOICE = 2;
export const FREE_TEXT = 3;
export const SINGLE_CHOICE_WITH_OTHER = 4;
export const MULTIPLE_CHOICE_WITH_OTHER = 5;
export const VIDEO_ANSWER = 6;
export const FILE_ANSWER = 7;

export const TEXT_LIMIT = 600;
/** Video and file answers: 10 MB (spec 001 section 5). */
export const FILE_LIMIT_BYTES = 10_000_000;
export const INVALID_FILE_TEXT = "Tamanho ou formato inválido";
export const ONE_OPTION_ONLY_TEXT = "Apenas uma opção por pergunta";

/** What the server takes, by extension; it checks the content itself. */
const ACCEPTED_EXTENSIONS: Record<number, readonly string[]> = {
  [VIDEO_ANSWER]: [".mp4", ".mov", ".webm"],
  [FILE_ANSWER]: [".pdf", ".doc", ".docx", ".zip", ".jpeg", ".jpg", ".png", ".gif"],
};

type Question = Pick<ResearchQuestion, "type_id">;

export function isSingleChoice(question: Question): boolean {
  return question.type_id === SINGLE_CHOICE || question.type_id === SINGLE_CHOICE_WITH_OTHER;
}

export function isChoice(question: Question): boolean {
  return isSingleChoice(question) || question.type_id === MULTIPLE_CHOICE || question.type_id === MULTIPLE_CHOICE_WITH_OTHER;
}

export function hasOther(question: Question): boolean {
  return question.type_id === SINGLE_CHOICE_WITH_OTHER || question.type_id === MULTIPLE_CHOICE_WITH_OTHER;
}

export function isFileQuestion(question: Question): boolean {
  return question.type_id === VIDEO_ANSWER || question.type_id === FILE_ANSWER;
}

/** The file input's `accept`, by extension. */
export function acceptedFiles(question: Question): string {
  return (ACCEPTED_EXTENSIONS[question.type_id] ?? []).join(",");
}

/** An answer being given: `other` is null until 'Outro' is chosen; `file` a new one to upload. */
export interface Draft {
  options: number[];
  text: string;
  other: string | null;
  file: File | null;
}

export const EMPTY_DRAFT: Draft = { options: [], text: "", other: null, file: null };

/** The draft of a saved answer, or an empty one. */
export function draftOf(answer: ResearchAnswer | undefined): Draft {
  if (!answer) return EMPTY_DRAFT;
  return { options: answer.options, text: answer.text ?? "", other: answer.other, file: null };
}

export function requestOf(draft: Draft): AnswerRequest {
  return {
    options: draft.options,
    text: draft.text.trim() === "" ? null : draft.text,
    other: draft.other === null || draft.other.trim() === "" ? null : draft.other,
  };
}

/** Whether a saved answer says anything (a personality test needs every question to). */
export function isAnswered(answer: ResearchAnswer | undefined): boolean {
  if (!answer) return false;
  return answer.options.length > 0 || Boolean(answer.text?.trim()) || Boolean(answer.other?.trim()) || answer.file !== null;
}

function fileError(question: Question, file: File): string | undefined {
  const name = file.name.toLowerCase();
  const known = (ACCEPTED_EXTENSIONS[question.type_id] ?? []).some((extension) => name.endsWith(extension));
  return file.size > FILE_LIMIT_BYTES || !known ? INVALID_FILE_TEXT : undefined;
}

const overTextLimit = maxLength(TEXT_LIMIT);

/**
 * What the draft of `question` is told before it is sent, or nothing when it may be:
 * `saved` is the answer already on the server (a file uploaded before).
 */
export function draftError(question: ResearchQuestion, draft: Draft, saved?: ResearchAnswer): string | undefined {
  if (isFileQuestion(question)) {
    if (draft.file) return fileError(question, draft.file);
    return question.required && !saved?.file ? MESSAGES.required : undefined;
  }
  if (question.type_id === FREE_TEXT) {
    if (question.required && draft.text.trim() === "") return MESSAGES.required;
    return overTextLimit(draft.text);
  }
  // 'Outro', once chosen, needs its text.
  if (draft.other !== null && draft.other.trim() === "") return MESSAGES.required;
  const chosen = draft.options.length > 0 || draft.other !== null;
  if (question.required && !chosen) return MESSAGES.required;
  return draft.other === null ? undefined : overTextLimit(draft.other);
}

/** The runner's and the survey's addresses (spec 001 section 2). */
export function quizPath(researchId: number, actionId: number): string {
  return `/homepage/quizzes/quiz?research=${researchId}&action=${actionId}`;
}

export function surveyPath(researchId: number, actionId: number): string {
  return `/homepage/survey/${researchId}/${actionId}`;
}

// Kept here, not in activity-text.ts, which the first load carries.
/** Types 6 to 12 are researches: 6 the quiz (judged answer by answer), 7 to 12 surveys. */
export const QUIZ_TYPE = 6;
export const RESEARCH_TYPES: readonly number[] = [6, 7, 8, 9, 10, 11, 12];
/** Type 10 is a poll whose results chart shows once the member has answered. */
export const POLL_WITH_RESULTS_TYPE = 10;
/** Type 12 is a personality test: every question needs an answer, optional ones too. */
export const PERSONALITY_TEST_TYPE = 12;

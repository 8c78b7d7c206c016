// One quiz question (spec 001 "Quiz"). A single choice is answered by its option; any other
// question by 'Responder'. The server's verdict decides: a right answer locks the question
// and offers 'Próxima'; a wrong one disables the options tried, and the member tries again.
import { useState } from "react";
import { useAnswerQuestion } from "@/features/activities/use-answer-question";
import {
  colorsOf,
  QuestionBox,
  QuestionImage,
  QuestionInput,
  QuestionText,
} from "@/features/activities/components/question-input";
import { draftError, draftOf, EMPTY_DRAFT, isSingleChoice, type Draft } from "@/features/activities/research-answers";
import { toastForError } from "@/lib/api-client";
import { MESSAGES } from "@/lib/validators";
import type { ResearchAnswer, ResearchQuestion } from "@/types/api";

export const ANSWER_TEXT = "Responder";
export const NEXT_TEXT = "Próxima";
export const SUBMITTING_TEXT = "Enviando...";

/** Whether the member may move on: answered right, or answered when nothing is wrong. */
export function isQuestionDone(answer: ResearchAnswer | undefined): boolean {
  if (!answer) return false;
  return answer.verdict === null || answer.verdict.correct;
}

interface QuizQuestionProps {
  researchId: number;
  question: ResearchQuestion;
  /** 1-based. */
  position: number;
  total: number;
  answer: ResearchAnswer | undefined;
  onNext: () => void;
  /** The quiz is being submitted ('Próxima' after the last question). */
  submitting: boolean;
}

export function QuizQuestion({ researchId, question, position, total, answer, onNext, submitting }: QuizQuestionProps) {
  const answering = useAnswerQuestion(researchId);
  const [draft, setDraft] = useState<Draft>(() => draftOf(answer));
  const [error, setError] = useState<string>();
  const done = isQuestionDone(answer);
  const locked = done || answering.isPending;
  const tried = answer?.tried ?? [];
  const verdict = answer?.verdict ?? null;

  const send = (sent: Draft) => {
    // An empty answer is no try: the server refuses it rather than spend the first try.
    const empty = sent.options.length === 0 && sent.other === null && sent.text.trim() === "" && !sent.file;
    const local = draftError(question, sent, answer) ?? (empty ? MESSAGES.required : undefined);
    setError(local);
    if (local) return;
    answering.answer(question, sent, (saved) => {
      // Options judged wrong are out of the next try.
      if (saved) setDraft({ ...sent, options: sent.options.filter((id) => !saved.tried.includes(id)), file: null });
    });
  };

  return (
    <div className="quiz-question">
      <p className="research-progress">
        Pergunta {position} de {total}
      </p>
      {isSingleChoice(question) ? (
        <QuestionBox question={question}>
          <fieldset className="research-choices">
            <legend className="research-question__text">
              <QuestionText question={question} />
            </legend>
            <QuestionImage question={question} />
            {question.options.map((option) => {
              const right = verdict?.correct === true && answer?.options.includes(option.id);
              const wrong = tried.includes(option.id);
              return (
                <button
                  key={option.id}
                  type="button"
                  className={`quiz-option${right ? " quiz-option--right" : ""}${wrong ? " quiz-option--wrong" : ""}`}
                  style={colorsOf(option)}
                  disabled={locked || wrong}
                  onClick={() => send({ ...EMPTY_DRAFT, options: [option.id] })}
                >
                  {option.image && <img className="research-choice__image" src={option.image} alt="" />}
                  {option.label}
                </button>
              );
            })}
          </fieldset>
        </QuestionBox>
      ) : (
        <>
          <QuestionInput
            question={question}
            draft={draft}
            onChange={setDraft}
            error={error}
            saved={answer}
            disabledOptions={tried}
            locked={locked}
          />
          {!done && (
            <button
              type="button"
              className="button button--primary research-action"
              disabled={answering.isPending}
              aria-busy={answering.isPending}
              onClick={() => send(draft)}
            >
              {ANSWER_TEXT}
            </button>
          )}
        </>
      )}
      <div className={`quiz-verdict${verdict ? (verdict.correct ? " quiz-verdict--right" : " quiz-verdict--wrong") : ""}`} role="status">
        {verdict && <p className="quiz-verdict__message">{verdict.message}</p>}
        {verdict?.correct && verdict.explanation && <p className="quiz-verdict__explanation">{verdict.explanation}</p>}
      </div>
      {answering.error && (
        <p className="field__error" role="alert">
          {toastForError(answering.error).text}
        </p>
      )}
      {done && (
        <button
          type="button"
          className="button button--primary research-action"
          disabled={submitting}
          aria-busy={submitting}
          onClick={onNext}
        >
          {submitting ? SUBMITTING_TEXT : NEXT_TEXT}
        </button>
      )}
    </div>
  );
}

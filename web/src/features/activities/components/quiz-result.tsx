// The quiz's result (spec 001 "Quiz"): how many questions the server counts right out of
// the total, the questions filtered by that, and 'Finalizar!'.
import { useState } from "react";
import type { ResearchQuestion, ResearchResult } from "@/types/api";

export const FINISH_TEXT = "Finalizar!";

type Verdict = "right" | "wrong";
type Filter = "all" | Verdict;

const FILTERS: readonly { id: Filter; label: string }[] = [
  { id: "all", label: "Todas" },
  { id: "right", label: "As que acertei" },
  { id: "wrong", label: "As que errei" },
];

const MARKS: Record<Verdict, string> = { right: "Acertou", wrong: "Errou" };

interface QuizResultProps {
  questions: readonly ResearchQuestion[];
  result: ResearchResult;
  onFinish: () => void;
}

export function QuizResult({ questions, result, onFinish }: QuizResultProps) {
  const [filter, setFilter] = useState<Filter>("all");
  const correctness = new Map(result.questions.map(({ question_id, correct }) => [question_id, correct]));
  const rightCount = result.questions.filter(({ correct }) => correct === true).length;
  const verdictOf = (question: ResearchQuestion): Verdict | null => {
    const correct = correctness.get(question.id);
    if (correct === true) return "right";
    return correct === false ? "wrong" : null;
  };
  const shown = questions.filter((question) => filter === "all" || verdictOf(question) === filter);

  return (
    <div className="quiz-result">
      <h2 className="quiz-result__title">Resultado</h2>
      <p className="quiz-result__score">
        Você acertou <strong>{`${rightCount} de ${result.question_count}`}</strong>
      </p>
      <div className="quiz-result__filters" role="group" aria-label="Filtrar perguntas">
        {FILTERS.map(({ id, label }) => (
          <button
            key={id}
            type="button"
            className="quiz-result__filter"
            aria-pressed={filter === id}
            onClick={() => setFilter(id)}
          >
            {label}
          </button>
        ))}
      </div>
      <ul className="quiz-result__list" aria-label="Perguntas">
        {shown.map((question) => {
          const verdict = verdictOf(question);
          return (
            <li key={question.id} className={`quiz-result__item${verdict ? ` quiz-result__item--${verdict}` : ""}`}>
              <span>{question.question}</span>
              {verdict && <span className="quiz-result__mark">{MARKS[verdict]}</span>}
            </li>
          );
        })}
      </ul>
      <button type="button" className="button button--primary research-action" onClick={onFinish}>
        {FINISH_TEXT}
      </button>
    </div>
  );
}

// A poll's results (type 10), once the member has answered: per question, a horizontal bar
// per option with its count and its share of the respondents, drawn in CSS and read as text.
// A chart with nothing to draw (no respondents, no questions, a question without options)
// says 'Não há dados para visualização' (spec 002 section 8; docs/decisions.md, "Success
// texts").
import { usePollResults } from "@/features/activities/api/research";
import { useErrorToast } from "@/components/toasts/use-error-toast";
import type { PollResults } from "@/types/api";
import "./research.css";

export const POLL_RESULTS_LABEL = "Resultado da enquete";
export const NO_CHART_DATA_TEXT = "Não há dados para visualização";

const PERCENT = new Intl.NumberFormat("pt-BR", { style: "percent", maximumFractionDigits: 0 });

export function respondentsText(count: number): string {
  return `${count} ${count === 1 ? "resposta" : "respostas"}`;
}

/** An option's share of the respondents (a multiple choice's shares add up to more than 100%). */
function shareOf(count: number, respondents: number): number {
  return respondents > 0 ? count / respondents : 0;
}

export function PollChart({ researchId }: { researchId: number }) {
  const results = usePollResults(researchId);
  useErrorToast(results.error);
  if (!results.data) return null;
  return <PollResultsChart results={results.data} />;
}

export function PollResultsChart({ results }: { results: PollResults }) {
  const { respondents } = results;
  if (respondents === 0 || results.questions.length === 0) {
    return (
      <section className="poll-chart" aria-label={POLL_RESULTS_LABEL}>
        <p className="poll-chart__empty">{NO_CHART_DATA_TEXT}</p>
      </section>
    );
  }
  return (
    <section className="poll-chart" aria-label={POLL_RESULTS_LABEL}>
      <p className="poll-chart__total">{respondentsText(respondents)}</p>
      {results.questions.map((question) => (
        <figure key={question.id} className="poll-chart__question">
          <figcaption className="poll-chart__title">{question.question}</figcaption>
          {question.options.length === 0 ? (
            <p className="poll-chart__empty">{NO_CHART_DATA_TEXT}</p>
          ) : (
            <ul className="poll-chart__bars" aria-label={question.question}>
              {question.options.map((option) => {
                const share = shareOf(option.count, respondents);
                return (
                  <li key={option.id} className="poll-chart__row">
                    <span className="poll-chart__label">{option.label}</span>
                    <span className="poll-chart__track" aria-hidden="true">
                      <span className="poll-chart__bar" style={{ width: `${Math.min(share, 1) * 100}%` }} />
                    </span>
                    <span className="poll-chart__value">{`${option.count} (${PERCENT.format(share)})`}</span>
                  </li>
                );
              })}
            </ul>
          )}
        </figure>
      ))}
    </section>
  );
}

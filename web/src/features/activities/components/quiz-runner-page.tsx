// /homepage/quizzes/quiz?research={id}&action={id}: the quiz runner (spec 001 "Quiz"; the
// spec's route has no parameters, so they ride in the query string). The intro, then one
// question at a time from the first one not yet answered right (the answers are saved on the
// server, so the member resumes anywhere), then the server's result and 'Finalizar!'.
import { useState } from "react";
import { useSearchParams } from "react-router";
import { useToast } from "@/components/toasts/use-toast";
import { useSubmitQuiz } from "@/features/activities/api/research";
import { availabilityText } from "@/features/activities/availability-text";
import { DetailSkeleton } from "@/features/activities/components/detail-skeleton";
import { NotFoundView } from "@/features/activities/components/not-found-view";
import { isQuestionDone, QuizQuestion, SUBMITTING_TEXT } from "@/features/activities/components/quiz-question";
import { QuizResult } from "@/features/activities/components/quiz-result";
import { ResearchFeedbackDialog } from "@/features/activities/components/research-feedback-dialog";
import { idOf, useResearchScreen } from "@/features/activities/use-research-screen";
import { useStation } from "@/features/stations";
import { ERROR_TOAST_TITLE, INTERNAL_SERVER_ERROR_TEXT } from "@/lib/api-client";
import type { Activity, Research } from "@/types/api";
import "./activities.css";
import "./research.css";

export const START_TEXT = "Iniciar Quiz";
export const SUCCESS_TITLE = "Sucesso";

export function questionCountText(count: number): string {
  return `${count} ${count === 1 ? "pergunta" : "perguntas"}`;
}

export function winText(points: number): string {
  return `Parabéns, você completou o Quiz e ganhou ${points} pontos`;
}

export function QuizRunnerPage() {
  const [params] = useSearchParams();
  const researchId = idOf(params.get("research"));
  const actionId = idOf(params.get("action"));
  if (researchId === null || actionId === null) return <NotFoundView />;
  return <QuizScreen key={`${researchId}-${actionId}`} researchId={researchId} actionId={actionId} />;
}

function QuizScreen({ researchId, actionId }: { researchId: number; actionId: number }) {
  const screen = useResearchScreen(researchId, actionId);
  if (screen.state === "loading") return <DetailSkeleton />;
  if (screen.state === "missing") return <NotFoundView />;
  return <QuizRunner research={screen.research} activity={screen.activity} />;
}

type Stage = "intro" | "question" | "result";

function QuizRunner({ research, activity }: { research: Research; activity: Activity }) {
  const submit = useSubmitQuiz();
  const showToast = useToast();
  const [stage, setStage] = useState<Stage>("intro");
  const [index, setIndex] = useState(0);
  const [dialogOpen, setDialogOpen] = useState(false);
  const { questions } = research;
  const answerOf = (questionId: number) => research.answers.find((answer) => answer.question_id === questionId);
  const notice = availabilityText(activity, useStation().time_zone);

  // The server scores the saved answers, so the quiz is submitted before its result shows.
  const finish = () =>
    submit.mutate(
      { action_id: research.action_id, research: research.id, attempt_id: research.attempt_id },
      {
        onSuccess: () => setStage("result"),
        onError: () => showToast({ title: ERROR_TOAST_TITLE, text: INTERNAL_SERVER_ERROR_TEXT }),
      },
    );
  const moveOn = () => {
    const next = questions.findIndex((question) => !isQuestionDone(answerOf(question.id)));
    if (next === -1) {
      finish();
      return;
    }
    setIndex(next);
    setStage("question");
  };
  const complete = (won: boolean, points: number) => {
    if (won) showToast({ title: SUCCESS_TITLE, text: winText(points) });
    setDialogOpen(true);
  };

  const question = questions[index];
  const result = submit.data;
  return (
    <section className="research-page">
      <h1 className="activity-detail__name">{research.name}</h1>
      {stage === "intro" && (
        <div className="quiz-intro">
          <p className="quiz-intro__count">{questionCountText(questions.length)}</p>
          {research.synopsis && <p className="research-synopsis">{research.synopsis}</p>}
          {notice === null ? (
            <button
              type="button"
              className="button button--primary research-action"
              disabled={submit.isPending}
              aria-busy={submit.isPending}
              onClick={moveOn}
            >
              {submit.isPending ? SUBMITTING_TEXT : START_TEXT}
            </button>
          ) : (
            <p className="activity-detail__notice" role="note">
              {notice}
            </p>
          )}
        </div>
      )}
      {stage === "question" && question && (
        <QuizQuestion
          key={question.id}
          researchId={research.id}
          question={question}
          position={index + 1}
          total={questions.length}
          answer={answerOf(question.id)}
          onNext={moveOn}
          submitting={submit.isPending}
        />
      )}
      {stage === "result" && result && (
        <QuizResult questions={questions} result={result} onFinish={() => complete(result.won === true, result.points)} />
      )}
      {dialogOpen && result && (
        <ResearchFeedbackDialog
          activity={activity}
          result={result}
          failed={result.won !== true}
          onClose={() => setDialogOpen(false)}
        />
      )}
    </section>
  );
}

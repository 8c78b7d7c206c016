// /homepage/survey/{surveyId}/{actionId}: a survey (types 7 to 12, spec 001 "Survey"), one
// question per step. 'Próximo' saves the step's answer on the server, so the member resumes
// at the first question without one; the last step's 'Enviar' saves it and submits. A poll
// with results (type 10) shows its chart in the closing dialog.
import { useState } from "react";
import { useParams } from "react-router";
import { useToast } from "@/components/toasts/use-toast";
import { useSubmitSurvey } from "@/features/activities/api/research";
import { availabilityText } from "@/features/activities/availability-text";
import { DetailSkeleton } from "@/features/activities/components/detail-skeleton";
import { NotFoundView } from "@/features/activities/components/not-found-view";
import { PollChart } from "@/features/activities/components/poll-chart";
import { QuestionInput } from "@/features/activities/components/question-input";
import { ResearchFeedbackDialog } from "@/features/activities/components/research-feedback-dialog";
import {
  draftError,
  draftOf,
  EMPTY_DRAFT,
  isAnswered,
  PERSONALITY_TEST_TYPE,
  POLL_WITH_RESULTS_TYPE,
  type Draft,
} from "@/features/activities/research-answers";
import { useAnswerQuestion } from "@/features/activities/use-answer-question";
import { useStation } from "@/features/stations";
import { idOf, useResearchScreen } from "@/features/activities/use-research-screen";
import { ApiError, ERROR_TOAST_TITLE, toastForError } from "@/lib/api-client";
import type { Activity, Research, ResearchAnswer } from "@/types/api";
import "./activities.css";
import "./research.css";

export const PREVIOUS_TEXT = "Anterior";
export const NEXT_TEXT = "Próximo";
export const SEND_TEXT = "Enviar";
export const SENDING_TEXT = "Enviando";
export const SENT_TOAST = { title: "Sucesso", text: "Operação realizada com sucesso" };
export const UNANSWERED_TOAST = { title: "Erro no envio", text: "Uma pergunta não foi respondida!" };

/** Each of the server's messages, or the one text of an answer that could not be read. */
function messagesOf(error: Error): string[] {
  const body = error instanceof ApiError ? error.body : undefined;
  const messages = typeof body === "object" && body !== null ? (body as { messages?: unknown }).messages : undefined;
  const texts = Array.isArray(messages) ? messages.filter((text): text is string => typeof text === "string" && text !== "") : [];
  return texts.length > 0 ? texts : [toastForError(error).text];
}

export function SurveyPage() {
  const params = useParams();
  const researchId = idOf(params.surveyId);
  const actionId = idOf(params.actionId);
  if (researchId === null || actionId === null) return <NotFoundView />;
  return <SurveyScreen key={`${researchId}-${actionId}`} researchId={researchId} actionId={actionId} />;
}

function SurveyScreen({ researchId, actionId }: { researchId: number; actionId: number }) {
  const screen = useResearchScreen(researchId, actionId);
  const { time_zone: timeZone } = useStation();
  if (screen.state === "loading") return <DetailSkeleton />;
  if (screen.state === "missing") return <NotFoundView />;
  const { research, activity } = screen;
  const notice = availabilityText(activity, timeZone);
  return (
    <section className="research-page">
      <h1 className="activity-detail__name">{research.name}</h1>
      {research.synopsis && <p className="research-synopsis">{research.synopsis}</p>}
      {notice === null ? (
        <SurveyStepper research={research} activity={activity} />
      ) : (
        <p className="activity-detail__notice" role="note">
          {notice}
        </p>
      )}
    </section>
  );
}

function SurveyStepper({ research, activity }: { research: Research; activity: Activity }) {
  const answering = useAnswerQuestion(research.id);
  const submit = useSubmitSurvey();
  const showToast = useToast();
  const { questions } = research;
  const answerOf = (questionId: number) => research.answers.find((answer) => answer.question_id === questionId);
  const [drafts, setDrafts] = useState<Record<number, Draft>>(() =>
    Object.fromEntries(questions.map((question) => [question.id, draftOf(answerOf(question.id))])),
  );
  const [step, setStep] = useState(() => {
    const unanswered = questions.findIndex((question) => !answerOf(question.id));
    return unanswered === -1 ? Math.max(questions.length - 1, 0) : unanswered;
  });
  const [error, setError] = useState<string>();
  const [dialogOpen, setDialogOpen] = useState(false);
  const question = questions[step];
  if (!question) return null;
  const draft = drafts[question.id] ?? EMPTY_DRAFT;
  const saved = answerOf(question.id);
  const last = step === questions.length - 1;
  const busy = answering.isPending || submit.isPending;

  const goTo = (next: number) => {
    setError(undefined);
    answering.reset();
    setStep(next);
  };
  /** Checks and saves the step's answer, then `then` with what the server saved. */
  const saveStep = (then: (answer?: ResearchAnswer) => void) => {
    const local = draftError(question, draft, saved);
    setError(local);
    if (local) return;
    answering.answer(question, draft, (answer) => {
      if (answer) setDrafts((current) => ({ ...current, [question.id]: { ...draft, file: null } }));
      then(answer);
    });
  };
  // The step just saved is not in this render's research yet: `answer` stands for it.
  const send = (answer?: ResearchAnswer) => {
    const answered = (questionId: number) => isAnswered(questionId === answer?.question_id ? answer : answerOf(questionId));
    if (research.type_id === PERSONALITY_TEST_TYPE && !questions.every(({ id }) => answered(id))) {
      showToast(UNANSWERED_TOAST);
      return;
    }
    submit.mutate(
      { action_id: research.action_id, research: research.id, attempt_id: answer?.attempt_id ?? research.attempt_id },
      {
        onSuccess: () => {
          showToast(SENT_TOAST);
          setDialogOpen(true);
        },
        onError: (failure) => messagesOf(failure).forEach((text) => showToast({ title: ERROR_TOAST_TITLE, text })),
      },
    );
  };

  return (
    <div className="survey">
      <p className="research-progress">{`${step + 1} de ${questions.length}`}</p>
      <QuestionInput
        key={question.id}
        question={question}
        draft={draft}
        onChange={(next) => setDrafts((current) => ({ ...current, [question.id]: next }))}
        error={error ?? (answering.error ? toastForError(answering.error).text : undefined)}
        saved={saved}
        locked={busy || submit.isSuccess}
      />
      {!submit.isSuccess && (
        <div className="survey__nav">
          {step > 0 && (
            <button type="button" className="button button--secondary" disabled={busy} onClick={() => goTo(step - 1)}>
              {PREVIOUS_TEXT}
            </button>
          )}
          {last ? (
            <button
              type="button"
              className="button button--primary"
              disabled={busy}
              aria-busy={submit.isPending}
              onClick={() => saveStep(send)}
            >
              {submit.isPending ? SENDING_TEXT : SEND_TEXT}
            </button>
          ) : (
            <button
              type="button"
              className="button button--primary"
              disabled={busy}
              aria-busy={answering.isPending}
              onClick={() => saveStep(() => goTo(step + 1))}
            >
              {NEXT_TEXT}
            </button>
          )}
        </div>
      )}
      {dialogOpen && submit.data && (
        <ResearchFeedbackDialog activity={activity} result={submit.data} onClose={() => setDialogOpen(false)}>
          {research.type_id === POLL_WITH_RESULTS_TYPE && (
            <div className="research-feedback__results">
              <PollChart researchId={research.id} />
            </div>
          )}
        </ResearchFeedbackDialog>
      )}
    </div>
  );
}

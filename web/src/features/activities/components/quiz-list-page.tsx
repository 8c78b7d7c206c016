// /homepage/quizzes (spec 001 "Quiz list"): the station's quizzes as cards with the name, the
// points (cashback), the description, the expiration (DD/MM/YYYY) and 'Participar' to the
// runner while the member may take part.
import { Link } from "react-router";
import { useQuizzes } from "@/features/activities/api/get-quizzes";
import { cashbackText } from "@/features/activities/activity-text";
import { CardSkeletons } from "@/features/activities/components/card-skeletons";
import { PARTICIPATE_TEXT } from "@/features/activities/components/research-body";
import { quizPath } from "@/features/activities/research-answers";
import { ListPage } from "@/components/list-page";
import { useErrorToast } from "@/components/toasts/use-error-toast";
import { useStation } from "@/features/stations";
import { formatDate } from "@/lib/dates";
import type { QuizCard } from "@/types/api";
import "./activities.css";
import "./research.css";

export const QUIZZES_TITLE = "Quizzes";
export const NO_QUIZZES_TEXT = "Não há quizzes no momento.";

export function QuizListPage() {
  const quizzes = useQuizzes();
  useErrorToast(quizzes.error);
  const list = quizzes.data ?? [];

  return (
    <ListPage title={QUIZZES_TITLE}>
      {quizzes.isPending ? (
        <CardSkeletons label="Carregando quizzes" />
      ) : list.length === 0 ? (
        <p className="list-page__empty">{NO_QUIZZES_TEXT}</p>
      ) : (
        <ul className="quiz-list" aria-label={QUIZZES_TITLE}>
          {list.map((quiz) => (
            <li key={quiz.id}>
              <QuizCardView quiz={quiz} />
            </li>
          ))}
        </ul>
      )}
    </ListPage>
  );
}

function QuizCardView({ quiz }: { quiz: QuizCard }) {
  const station = useStation();
  const expiration = formatDate(quiz.expiration);
  return (
    <article className="quiz-card">
      {quiz.image && <img className="activity-card__image" src={quiz.image} alt="" loading="lazy" />}
      <div className="quiz-card__body">
        <h2 className="quiz-card__name">{quiz.name}</h2>
        <p className="activity-card__cashback">{cashbackText(quiz, station)}</p>
        {/* Sanitised on the server, as every activity's description. */}
        <div className="quiz-card__description" dangerouslySetInnerHTML={{ __html: quiz.description }} />
        {expiration && <p className="quiz-card__expiration">Expira em {expiration}</p>}
        {quiz.availability === "open" && (
          <Link className="button button--primary quiz-card__action" to={quizPath(quiz.research_id, quiz.id)}>
            {PARTICIPATE_TEXT}
          </Link>
        )}
      </div>
    </article>
  );
}

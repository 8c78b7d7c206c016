// Types 6 to 12: the activity's page leads to its research, the quiz runner (type 6) or the
// survey (7 to 12), while the member may take part.
import { Link } from "react-router";
import { QUIZ_TYPE, quizPath, surveyPath } from "@/features/activities/research-answers";
import type { Activity } from "@/types/api";

export const PARTICIPATE_TEXT = "Participar";

export function ResearchBody({ activity }: { activity: Activity }) {
  const research = activity.researches[0];
  if (activity.availability !== "open" || !research) return null;
  const to = activity.type_id === QUIZ_TYPE ? quizPath(research.id, activity.id) : surveyPath(research.id, activity.id);
  return (
    <Link className="button button--primary activity-detail__action" to={to}>
      {activity.click_me_label ?? PARTICIPATE_TEXT}
    </Link>
  );
}

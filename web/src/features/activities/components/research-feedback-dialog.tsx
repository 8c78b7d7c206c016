// What opens once a quiz or survey is submitted: the activity's feedback dialog, leading to
// /homepage (spec 001), with the research's own feedback for the member's score when it has
// one. A lost quiz says 'Que pena...' / 'Não foi dessa vez', without animation.
import type { ReactNode } from "react";
import { FeedbackDialog } from "@/features/activities/components/feedback-dialog";
import type { Activity, ResearchResult } from "@/types/api";

export const QUIZ_FAIL_TITLE = "Que pena...";
export const QUIZ_FAIL_TEXT = "Não foi dessa vez";

interface ResearchFeedbackDialogProps {
  activity: Activity;
  result: ResearchResult;
  /** A quiz the member did not pass. */
  failed?: boolean;
  /** What the research adds (a poll's results). */
  children?: ReactNode;
  onClose: () => void;
}

export function ResearchFeedbackDialog({ activity, result, failed = false, children, onClose }: ResearchFeedbackDialogProps) {
  const { feedback } = result;
  const shown = failed
    ? { name: QUIZ_FAIL_TITLE, feedback_message: QUIZ_FAIL_TEXT, feedback_lottie_id: null }
    : {
        name: activity.name,
        // The research's feedback, written for this score, replaces the activity's generic one.
        feedback_message: feedback ? null : activity.feedback_message,
        feedback_lottie_id: feedback?.feedback_lottie_id ?? activity.feedback_lottie_id,
      };
  return (
    <FeedbackDialog activity={shown} returnTo="/homepage" onClose={onClose}>
      {/* Sanitised on the server (docs/api-activities.md). */}
      {feedback && <div className="research-feedback" dangerouslySetInnerHTML={{ __html: feedback.feedback }} />}
      {children}
    </FeedbackDialog>
  );
}

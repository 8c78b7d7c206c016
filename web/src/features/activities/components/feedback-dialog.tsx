// What opens once a participation is done: the activity's feedback message, its animation
// if it has one, and the way back to the home.
import { Link } from "react-router";
import { Modal } from "@/components/modal";
import type { Activity } from "@/types/api";
import { LottieAnimation } from "@/features/activities/components/lottie-animation";

interface FeedbackDialogProps {
  activity: Pick<Activity, "name" | "feedback_message" | "feedback_lottie_id">;
  onClose: () => void;
}

export function FeedbackDialog({ activity, onClose }: FeedbackDialogProps) {
  return (
    <Modal title={activity.name} onDismiss={onClose}>
      {activity.feedback_lottie_id !== null && <LottieAnimation id={activity.feedback_lottie_id} />}
      {activity.feedback_message && <p className="feedback-dialog__message">{activity.feedback_message}</p>}
      <Link className="button button--primary" to="/homepage">
        Página inicial
      </Link>
    </Modal>
  );
}

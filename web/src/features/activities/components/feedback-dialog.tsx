// What opens once a participation is done (spec 001 "Activity detail"): the activity's
// feedback message, its animation if it has one, and the ways on that the participation
// offers. However it closes, the member's points are asked for again (the credit has
// landed by then more often than when the participation was answered); dismissing it
// (Escape, a click outside) returns to the route its caller gives.
import { useQueryClient } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Link, useLocation, useNavigate } from "react-router";
import { Modal } from "@/components/modal";
import { useSession } from "@/features/session";
import { invalidateWallet } from "@/features/wallet";
import type { Activity } from "@/types/api";
import { LottieAnimation } from "@/features/activities/components/lottie-animation";

/** A button of the dialog: a link on to another page. */
export interface FeedbackButton {
  label: string;
  to: string;
}

export const HOME_BUTTON: FeedbackButton = { label: "Página inicial", to: "/homepage" };
export const BACK_HOME_BUTTON: FeedbackButton = { label: "Voltar para a página inicial", to: "/homepage" };
export const PURCHASES_BUTTON: FeedbackButton = { label: "Ir para minhas compras", to: "/homepage/minhas-compras" };

interface FeedbackDialogProps {
  activity: Pick<Activity, "name" | "feedback_message" | "feedback_lottie_id">;
  /** Where dismissing the dialog leads; the page it opened on stays when it is that page. */
  returnTo: string;
  /** The ways on, in order; 'Página inicial' unless the participation offers others. */
  buttons?: readonly FeedbackButton[];
  /** What the participation adds under the message (a research's feedback, a poll's results). */
  children?: ReactNode;
  onClose: () => void;
}

export function FeedbackDialog({ activity, returnTo, buttons = [HOME_BUTTON], children, onClose }: FeedbackDialogProps) {
  const queryClient = useQueryClient();
  const userId = useSession()?.user.id;
  const navigate = useNavigate();
  const { pathname } = useLocation();

  const close = () => {
    if (userId !== undefined) void invalidateWallet(queryClient, userId);
    onClose();
  };
  const dismiss = () => {
    close();
    if (returnTo !== pathname) void navigate(returnTo);
  };

  return (
    <Modal title={activity.name} onDismiss={dismiss}>
      {activity.feedback_lottie_id !== null && <LottieAnimation id={activity.feedback_lottie_id} />}
      {activity.feedback_message && <p className="feedback-dialog__message">{activity.feedback_message}</p>}
      {children}
      <div className="modal__actions">
        {buttons.map((button, index) => (
          <Link
            key={button.label}
            className={`button ${index === 0 ? "button--primary" : "button--secondary"}`}
            to={button.to}
            onClick={close}
          >
            {button.label}
          </Link>
        ))}
      </div>
    </Modal>
  );
}

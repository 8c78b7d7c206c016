// Type 16: opening the content is the participation. It is sent once per visit of the page,
// and only while the member may take part; the server pays it once however often it comes,
// and says whether this visit recorded it: only then is the member congratulated. Closing
// the dialog leaves the member on the content.
import { useEffect, useRef, useState } from "react";
import { useLocation } from "react-router";
import { useRawContentParticipation } from "@/features/activities/api/raw-content-participation";
import type { Activity } from "@/types/api";
import { FeedbackDialog } from "@/features/activities/components/feedback-dialog";

export function RawContentBody({ activity }: { activity: Activity }) {
  const { mutate } = useRawContentParticipation();
  const { pathname } = useLocation();
  const sentFor = useRef<number | null>(null);
  const [feedbackOpen, setFeedbackOpen] = useState(false);
  const open = activity.availability === "open";

  useEffect(() => {
    // The ref keeps a re-render or StrictMode's second effect from sending it again.
    if (!open || sentFor.current === activity.id) return;
    sentFor.current = activity.id;
    mutate({ action_id: activity.id }, { onSuccess: (answer) => setFeedbackOpen(answer.recorded) });
  }, [activity.id, open, mutate]);

  if (!feedbackOpen) return null;
  return <FeedbackDialog activity={activity} returnTo={pathname} onClose={() => setFeedbackOpen(false)} />;
}

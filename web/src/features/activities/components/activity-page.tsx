// /homepage/atividades/{id} and /homepage/atividade/{id}: a member's view of an activity.
// Only raw content (type 16) has a body yet; the other types' actions come with their issues.
import { useParams } from "react-router";
import { useActivity } from "@/features/activities/api/get-activity";
import { RAW_CONTENT_TYPE } from "@/features/activities/activity-text";
import { ActivityDetail } from "@/features/activities/components/activity-detail";
import { DetailSkeleton } from "@/features/activities/components/detail-skeleton";
import { NotFoundView } from "@/features/activities/components/not-found-view";
import { RawContentBody } from "@/features/activities/components/raw-content-body";
import { useErrorToast } from "@/features/activities/use-error-toast";
import { ApiError } from "@/lib/api-client";
import "./activities.css";

export function ActivityPage() {
  const id = useParams().id ?? "";
  const activity = useActivity(id);
  const notFound = activity.error instanceof ApiError && activity.error.status === 404;
  // A 404 is the not-found view, not a failure to report.
  useErrorToast(notFound ? null : activity.error);

  if (activity.isPending) return <DetailSkeleton />;
  if (!activity.data) return <NotFoundView />;
  const data = activity.data;
  return (
    <ActivityDetail
      activity={data}
      body={data.type_id === RAW_CONTENT_TYPE ? <RawContentBody key={data.id} activity={data} /> : undefined}
    />
  );
}

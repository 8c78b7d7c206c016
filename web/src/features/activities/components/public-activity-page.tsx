// /atividade/{id}: a public activity for visitors, of the station the host serves. Any
// action leads to the sign-up (spec 001 section 1). A signed-in member who follows a
// shared link gets the member's page of the same activity.
import { Link, Navigate, useParams } from "react-router";
import { usePublicActivity } from "@/features/activities/api/get-activity";
import { ActivityDetail } from "@/features/activities/components/activity-detail";
import { DetailSkeleton } from "@/features/activities/components/detail-skeleton";
import { NotFoundView } from "@/features/activities/components/not-found-view";
import { useErrorToast } from "@/components/toasts/use-error-toast";
import { useSession } from "@/features/session";
import { StationLogo } from "@/features/stations";
import { ApiError } from "@/lib/api-client";
import "./activities.css";

export const SIGN_UP_PATH = "/cadastrar";

export function PublicActivityPage() {
  const id = useParams().id ?? "";
  const signedIn = useSession() !== null;
  if (signedIn) return <Navigate to={`/homepage/atividade/${encodeURIComponent(id)}`} replace />;
  return <VisitorActivityPage id={id} />;
}

function VisitorActivityPage({ id }: { id: string }) {
  const activity = usePublicActivity(id);
  const notFound = activity.error instanceof ApiError && activity.error.status === 404;
  useErrorToast(notFound ? null : activity.error);

  return (
    <div className="public-activity">
      <header className="public-activity__header">
        <Link to="/" className="public-activity__home">
          <StationLogo className="public-activity__logo" />
        </Link>
        <Link to={SIGN_UP_PATH} className="button button--secondary">
          Cadastre-se
        </Link>
      </header>
      <main className="public-activity__content">
        {activity.isPending ? (
          <DetailSkeleton />
        ) : !activity.data ? (
          <NotFoundView homePath="/" />
        ) : (
          <ActivityDetail
            activity={activity.data}
            body={
              <Link to={SIGN_UP_PATH} className="button button--primary activity-detail__action">
                {activity.data.click_me_label ?? "Participar"}
              </Link>
            }
          />
        )}
      </main>
    </div>
  );
}

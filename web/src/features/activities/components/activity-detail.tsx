// An activity's page (spec 001 section 2, "Activity detail"): the image on top (not for a
// video playlist), the name, then the 'Geral' and 'Regulamento' tabs. 'Geral' holds the
// description, the first video if any, what the window or limit says, and the type's body. The rules tab is
// hidden for raw content (type 16) and when there are no rules. Comments and likes follow
// when the activity has them, loaded on demand (the feed feature).
import { lazy, Suspense, useId, useState, type ReactNode } from "react";
import type { Activity } from "@/types/api";
import { RAW_CONTENT_TYPE, VIDEO_PLAYLIST_TYPE } from "@/features/activities/activity-text";
import { availabilityText } from "@/features/activities/availability-text";
import { FirstVideo } from "@/features/activities/components/first-video";
import { useStation } from "@/features/stations";

const ActivityComments = lazy(async () => ({ default: (await import("@/features/feed")).ActivityComments }));

type TabId = "geral" | "regulamento";

const TABS: readonly { id: TabId; label: string }[] = [
  { id: "geral", label: "Geral" },
  { id: "regulamento", label: "Regulamento" },
];

export function showsRulesTab(activity: Pick<Activity, "type_id" | "has_rules">): boolean {
  return activity.type_id !== RAW_CONTENT_TYPE && activity.has_rules;
}

interface ActivityDetailProps {
  activity: Activity;
  /** The type's body (a participation, a visitor's way to sign up), under the description. */
  body?: ReactNode;
}

export function ActivityDetail({ activity, body }: ActivityDetailProps) {
  const baseId = useId();
  const [tab, setTab] = useState<TabId>("geral");
  const withRules = showsRulesTab(activity);
  // Raw content is the description alone, without tabs (spec 001 section 4).
  const withTabs = activity.type_id !== RAW_CONTENT_TYPE;
  const tabs = withRules ? TABS : TABS.slice(0, 1);
  const current = withRules ? tab : "geral";
  const notice = availabilityText(activity, useStation().time_zone);

  const general = (
    <>
      {/* Sanitised on the server (docs/api-activities.md): no script, style or handler survives. */}
      <div className="activity-detail__description" dangerouslySetInnerHTML={{ __html: activity.description }} />
      {/* A playlist's body plays its videos. */}
      {activity.type_id !== VIDEO_PLAYLIST_TYPE && <FirstVideo videos={activity.action_videos} activityName={activity.name} />}
      {notice !== null && (
        <p className="activity-detail__notice" role="note">
          {notice}
        </p>
      )}
      {body}
    </>
  );

  return (
    <article className="activity-detail">
      {activity.type_id !== VIDEO_PLAYLIST_TYPE && activity.image && (
        <img className="activity-detail__image" src={activity.image} alt="" />
      )}
      <h1 className="activity-detail__name">{activity.name}</h1>
      {withTabs ? (
        <>
          <div className="activity-detail__tabs" role="tablist" aria-label={activity.name}>
            {tabs.map(({ id, label }) => (
              <button
                key={id}
                type="button"
                role="tab"
                id={`${baseId}-${id}-tab`}
                aria-controls={`${baseId}-${id}-panel`}
                aria-selected={current === id}
                tabIndex={current === id ? 0 : -1}
                className="activity-detail__tab"
                onClick={() => setTab(id)}
              >
                {label}
              </button>
            ))}
          </div>
          <div role="tabpanel" id={`${baseId}-${current}-panel`} aria-labelledby={`${baseId}-${current}-tab`}>
            {current === "geral" ? (
              general
            ) : (
              <div className="activity-detail__rules" dangerouslySetInnerHTML={{ __html: activity.rules }} />
            )}
          </div>
        </>
      ) : (
        general
      )}
      {activity.comments_and_likes_enabled && (
        <Suspense fallback={null}>
          <ActivityComments activityId={activity.id} />
        </Suspense>
      )}
    </article>
  );
}

// An activity in a row, grid or list (spec 001 section 4, "Activity card behaviour"): unmet
// prerequisites dim it and open 'Quase lá'; type 13 opens its external link; any other
// goes to the activity's page. A visitor's card (the landing's carousel, spec 002 section
// type 5) has no gate, which is the member's, and leads to the public page /atividade/{id}.
import { useState, type ReactNode } from "react";
import { Link } from "react-router";
import type { ActivityCard as Activity } from "@/types/api";
import { PrerequisitesDialog } from "@/features/activities/components/prerequisites-dialog";
import {
  cashbackText,
  EXTERNAL_LINK_TYPE,
  HOME_NAME_LIMIT,
  LIST_NAME_LIMIT,
  missingPrerequisites,
  truncateName,
} from "@/features/activities/activity-text";
import { useStation } from "@/features/stations";

/** A member's card, or a visitor's (no gate, the public page). */
export type CardAudience = "member" | "visitor";

interface ActivityCardProps {
  activity: Activity;
  /** Home rows cut names at 62 characters, lists at 70. */
  variant: "home" | "list";
  audience?: CardAudience;
}

export function ActivityCard({ activity, variant, audience = "member" }: ActivityCardProps) {
  const station = useStation();
  const [dialogOpen, setDialogOpen] = useState(false);
  const missing = audience === "member" ? missingPrerequisites(activity) : [];
  const name = truncateName(activity.name, variant === "home" ? HOME_NAME_LIMIT : LIST_NAME_LIMIT);

  const body = (
    <>
      {activity.image ? (
        <img className="activity-card__image" src={activity.image} alt="" loading="lazy" />
      ) : (
        <span className="activity-card__image activity-card__image--empty" aria-hidden="true" />
      )}
      <span className="activity-card__name">{name}</span>
      <span className="activity-card__cashback">{cashbackText(activity, station)}</span>
    </>
  );

  let target: ReactNode;
  // A gate comes before any way in, the external link included.
  if (missing.length > 0) {
    target = (
      <button type="button" className="activity-card__target" onClick={() => setDialogOpen(true)}>
        {body}
      </button>
    );
  } else if (activity.type_id === EXTERNAL_LINK_TYPE && activity.redirect_links[0]) {
    target = (
      <a className="activity-card__target" href={activity.redirect_links[0].url} target="_blank" rel="noopener noreferrer">
        {body}
      </a>
    );
  } else {
    target = (
      <Link
        className="activity-card__target"
        to={audience === "member" ? `/homepage/atividades/${activity.id}` : `/atividade/${activity.id}`}
      >
        {body}
      </Link>
    );
  }

  return (
    <article className={`activity-card${missing.length > 0 ? " activity-card--locked" : ""}`} title={activity.name}>
      {target}
      {dialogOpen && <PrerequisitesDialog missing={missing} onClose={() => setDialogOpen(false)} />}
    </article>
  );
}

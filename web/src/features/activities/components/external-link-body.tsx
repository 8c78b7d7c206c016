// Type 13 (spec 001, "External redirect through redirect_links[0].url"): a button that opens
// the external link in a new tab, as the activity's card does. Hidden like the other
// bodies when the activity is not open (the panel says why), or when it has no link.
import type { Activity } from "@/types/api";

export const EXTERNAL_LINK_LABEL = "Acessar";

export function ExternalLinkBody({ activity }: { activity: Activity }) {
  const link = activity.redirect_links[0];
  if (activity.availability !== "open" || !link) return null;
  return (
    <a className="button button--primary activity-detail__action" href={link.url} target="_blank" rel="noopener noreferrer">
      {activity.click_me_label ?? EXTERNAL_LINK_LABEL}
    </a>
  );
}

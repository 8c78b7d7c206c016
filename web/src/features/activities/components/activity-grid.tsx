import type { ActivityCard as Activity } from "@/types/api";
import { ActivityCard } from "@/features/activities/components/activity-card";

/** A list page's activities: cards with names cut at 70 characters. */
export function ActivityGrid({ activities, label }: { activities: Activity[]; label: string }) {
  return (
    <ul className="activity-grid" aria-label={label}>
      {activities.map((activity) => (
        <li key={activity.id}>
          <ActivityCard activity={activity} variant="list" />
        </li>
      ))}
    </ul>
  );
}

import { useEffect, useRef } from "react";
import type { ActivityCard as Activity } from "@/types/api";
import { ActivityCard } from "@/features/activities/components/activity-card";

interface ActivityGridProps {
  activities: Activity[];
  label: string;
  /** Once the card at this index is shown, the focus moves to it (a page loaded on request). */
  focusIndex?: number | null;
  onFocused?: () => void;
}

/** A list page's activities: cards with names cut at 70 characters. */
export function ActivityGrid({ activities, label, focusIndex = null, onFocused }: ActivityGridProps) {
  const listRef = useRef<HTMLUListElement>(null);
  useEffect(() => {
    if (focusIndex === null || focusIndex >= activities.length) return;
    const item = listRef.current?.children.item(focusIndex);
    item?.querySelector<HTMLElement>("a, button")?.focus();
    onFocused?.();
  }, [focusIndex, activities.length, onFocused]);

  return (
    <ul ref={listRef} className="activity-grid" aria-label={label}>
      {activities.map((activity) => (
        <li key={activity.id}>
          <ActivityCard activity={activity} variant="list" />
        </li>
      ))}
    </ul>
  );
}

// A home row that scrolls sideways: now-playing (3 cards, 2 on tablet) and journeys (4, 3
// on tablet). A journey starts scrolled at its first activity not done.
import { useLayoutEffect, useRef } from "react";
import type { ActivityCard as Activity } from "@/types/api";
import { ActivityCard } from "@/features/activities/components/activity-card";

interface ActivityRowProps {
  title: string;
  activities: Activity[];
  kind: "now-playing" | "journey";
  /** The card the row starts scrolled at. */
  startIndex?: number;
  subtitle?: string;
}

export function ActivityRow({ title, activities, kind, startIndex = 0, subtitle }: ActivityRowProps) {
  const listRef = useRef<HTMLUListElement>(null);

  useLayoutEffect(() => {
    const list = listRef.current;
    const start = list?.children[startIndex];
    if (!list || !(start instanceof HTMLElement) || startIndex === 0) return;
    // Scrolls the row only, never the page (scrollIntoView would).
    list.scrollLeft = start.offsetLeft - list.offsetLeft;
  }, [startIndex]);

  return (
    <section className={`activity-row activity-row--${kind}`} aria-label={title}>
      <h2 className="activity-row__title">{title}</h2>
      {subtitle && <p className="activity-row__subtitle">{subtitle}</p>}
      <ul ref={listRef} className="activity-row__list">
        {activities.map((activity) => (
          <li key={activity.id} className="activity-row__item">
            <ActivityCard activity={activity} variant="home" />
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Where a journey starts: its first activity not done (the server puts the done ones first). */
export function journeyStartIndex(actions: { hasDone: boolean }[]): number {
  const index = actions.findIndex((action) => !action.hasDone);
  return index === -1 ? 0 : index;
}

// An event in a calendar view: a link to its page that remembers the view it came from.
import { Link, useLocation } from "react-router";
import { formatMoment, formatMinutes, zonedMoment, type CivilDate } from "@/features/calendar/calendar-dates";
import type { Schedule } from "@/types/api";

/** What the detail page's "back" link returns to. */
export interface CalendarReturn {
  calendarSearch: string;
}

export function schedulePath(id: number): string {
  return `/homepage/calendario/${id}`;
}

/** "14:00 – 18:00" within one day; both dates in full when the event spans days. */
export function timeRange(schedule: Schedule, timeZone: string): string {
  const start = zonedMoment(schedule.start, timeZone);
  const end = zonedMoment(schedule.end, timeZone);
  if (start.date === end.date) return `${formatMinutes(start.minutes)} – ${formatMinutes(end.minutes)}`;
  return `${formatMoment(schedule.start, timeZone)} – ${formatMoment(schedule.end, timeZone)}`;
}

interface ScheduleLinkProps {
  schedule: Schedule;
  timeZone: string;
  /** The day it shows on: its start time is written only on the day it starts. */
  day: CivilDate;
  /** Whether the link starts with its start time (the month view's; the others write the range beside it). */
  withTime?: boolean;
  className?: string;
}

export function ScheduleLink({ schedule, timeZone, day, withTime = true, className }: ScheduleLinkProps) {
  const { search } = useLocation();
  const start = zonedMoment(schedule.start, timeZone);
  const state: CalendarReturn = { calendarSearch: search };
  return (
    <Link className={className} to={schedulePath(schedule.id)} state={state}>
      {withTime && start.date === day && (
        <>
          <span className="calendar-event__time">{formatMinutes(start.minutes)}</span>{" "}
        </>
      )}
      <span className="calendar-event__name">{schedule.name}</span>
    </Link>
  );
}

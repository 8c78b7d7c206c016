// The list view: the period's days that have events, each a heading and its events with
// their times and what the day is.
import { longDay, type CivilDate } from "@/features/calendar/calendar-dates";
import { ScheduleLink, timeRange } from "@/features/calendar/components/schedule-link";
import type { Schedule } from "@/types/api";

export const NO_EVENTS_TEXT = "Não há eventos neste período.";

interface ListViewProps {
  days: CivilDate[];
  byDay: Map<CivilDate, Schedule[]>;
  timeZone: string;
}

export function ListView({ days, byDay, timeZone }: ListViewProps) {
  const busyDays = days.filter((day) => (byDay.get(day) ?? []).length > 0);
  if (busyDays.length === 0) return <p className="list-page__empty">{NO_EVENTS_TEXT}</p>;
  return (
    <ol className="calendar-list" aria-label="Eventos por dia">
      {busyDays.map((day) => (
        <li key={day} className="calendar-list__day">
          <h3 id={`calendar-list-${day}`}>{longDay(day)}</h3>
          <ul aria-labelledby={`calendar-list-${day}`}>
            {(byDay.get(day) ?? []).map((schedule) => (
              <li key={schedule.id} className="calendar-list__event">
                <span className="calendar-list__time">{timeRange(schedule, timeZone)}</span>
                <ScheduleLink className="calendar-list__link" schedule={schedule} timeZone={timeZone} day={day} withTime={false} />
                {schedule.day && <span className="calendar-list__tag">{schedule.day.description}</span>}
              </li>
            ))}
          </ul>
        </li>
      ))}
    </ol>
  );
}

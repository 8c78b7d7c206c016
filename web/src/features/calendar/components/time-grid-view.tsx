// The week and day views: a column per day cut in 15-minute slots (spec 002 section 9), each
// event spanning its slots, overlapping ones side by side. For screen readers each day is a
// heading followed by the list of its events with their times; the grid is only their look.
import type { CSSProperties } from "react";
import {
  longDay,
  SLOTS_PER_DAY,
  WEEKDAY_SHORT,
  weekdayOf,
  type CivilDate,
} from "@/features/calendar/calendar-dates";
import { formatCivilDate } from "@/lib/dates";
import { placeInSlots } from "@/features/calendar/calendar-layout";
import { ScheduleLink, timeRange } from "@/features/calendar/components/schedule-link";
import type { Schedule } from "@/types/api";

interface TimeGridViewProps {
  days: CivilDate[];
  byDay: Map<CivilDate, Schedule[]>;
  today: CivilDate;
  timeZone: string;
}

const HOURS = Array.from({ length: 24 }, (_, hour) => hour);

export function TimeGridView({ days, byDay, today, timeZone }: TimeGridViewProps) {
  const style = { "--calendar-days": days.length, "--calendar-slots": SLOTS_PER_DAY } as CSSProperties;
  return (
    // Focusable, so a keyboard can scroll it sideways on a narrow screen.
    <div className="calendar-time" style={style} role="region" aria-label="Grade de horários" tabIndex={0}>
      <div className="calendar-time__heads">
        {days.map((day) => (
          <h3
            key={day}
            id={`calendar-day-${day}`}
            className={`calendar-time__head${day === today ? " calendar-time__head--today" : ""}`}
            aria-current={day === today ? "date" : undefined}
          >
            <span aria-hidden="true">
              {WEEKDAY_SHORT[weekdayOf(day)]} {formatCivilDate(day).slice(0, 5)}
            </span>
            <span className="calendar-visually-hidden">{longDay(day)}</span>
          </h3>
        ))}
      </div>
      <div className="calendar-time__body">
        <ol className="calendar-time__hours" aria-hidden="true">
          {HOURS.map((hour) => (
            <li key={hour} style={{ gridRow: `${hour * 4 + 1} / span 4` }}>
              {String(hour).padStart(2, "0")}:00
            </li>
          ))}
        </ol>
        {days.map((day) => {
          const { placed, lanes } = placeInSlots(byDay.get(day) ?? [], day, timeZone);
          return (
            <ul
              key={day}
              className="calendar-time__column"
              aria-labelledby={`calendar-day-${day}`}
              style={{ gridTemplateColumns: `repeat(${lanes}, minmax(0, 1fr))` }}
              data-day={day}
            >
              {placed.length === 0 && <li className="calendar-visually-hidden">Nenhum evento</li>}
              {placed.map(({ schedule, first, end, lane }) => (
                <li
                  key={schedule.id}
                  className="calendar-time__event"
                  style={{ gridRow: `${first + 1} / ${end + 1}`, gridColumn: lane + 1 }}
                >
                  <ScheduleLink className="calendar-event" schedule={schedule} timeZone={timeZone} day={day} withTime={false} />
                  <span className="calendar-time__range">{timeRange(schedule, timeZone)}</span>
                </li>
              ))}
            </ul>
          );
        })}
      </div>
    </div>
  );
}

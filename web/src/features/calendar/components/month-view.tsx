// The month view: a table of six weeks, Sunday first, each day with its events.
import { longDay, monthOf, WEEKDAY_SHORT, weekdayName, type CivilDate } from "@/features/calendar/calendar-dates";
import { ScheduleLink } from "@/features/calendar/components/schedule-link";
import type { Schedule } from "@/types/api";

interface MonthViewProps {
  days: CivilDate[];
  byDay: Map<CivilDate, Schedule[]>;
  anchor: CivilDate;
  today: CivilDate;
  timeZone: string;
  caption: string;
}

export function MonthView({ days, byDay, anchor, today, timeZone, caption }: MonthViewProps) {
  const weeks = Array.from({ length: days.length / 7 }, (_, week) => days.slice(week * 7, week * 7 + 7));
  const month = monthOf(anchor);
  return (
    <table className="calendar-month">
      <caption className="calendar-visually-hidden">{caption}</caption>
      <thead>
        <tr>
          {(weeks[0] ?? []).map((day, index) => (
            <th key={day} scope="col">
              <abbr title={weekdayName(day)}>{WEEKDAY_SHORT[index]}</abbr>
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {weeks.map((week) => (
          <tr key={week[0]}>
            {week.map((day) => {
              const events = byDay.get(day) ?? [];
              const outside = monthOf(day) !== month;
              return (
                <td
                  key={day}
                  className={`calendar-month__day${outside ? " calendar-month__day--outside" : ""}${day === today ? " calendar-month__day--today" : ""}`}
                  aria-current={day === today ? "date" : undefined}
                  data-day={day}
                >
                  <span className="calendar-month__number" aria-hidden="true">
                    {Number(day.slice(8))}
                  </span>
                  <span className="calendar-visually-hidden">{longDay(day)}</span>
                  {events.length > 0 && (
                    <ul className="calendar-month__events" aria-label={`Eventos de ${longDay(day)}`}>
                      {events.map((schedule) => (
                        <li key={schedule.id}>
                          <ScheduleLink className="calendar-event" schedule={schedule} timeZone={timeZone} day={day} />
                        </li>
                      ))}
                    </ul>
                  )}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

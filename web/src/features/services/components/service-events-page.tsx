// A desk's 'eventos': the spec shows a calendar of hard-coded sample events; here it is the
// station's own schedules (the calendar's API) of the coming weeks, each leading to its page
// in the station calendar, and a link to the whole calendar.
import { useState } from "react";
import { Link } from "react-router";
import { Skeletons } from "@/components/list-page";
import { addDays, formatMoment, queryWindow, schedulePath, todayIn, useSchedules } from "@/features/calendar";
import { NO_EVENTS_TEXT } from "@/features/services/components/service-texts";
import { useStation } from "@/features/stations";
import "./services.css";

/** How far ahead the page looks: eight weeks (the schedules API reads at most 62 days). */
export const EVENTS_AHEAD_DAYS = 56;

/** The days shown from `today`, as the calendar asks the API for them. */
export function eventsWindow(today: string) {
  return queryWindow(Array.from({ length: EVENTS_AHEAD_DAYS }, (_, index) => addDays(today, index)));
}

export function ServiceEventsPage({ title }: { title: string }) {
  const timeZone = useStation().time_zone;
  const today = todayIn(timeZone);
  const schedules = useSchedules(eventsWindow(today));
  // What has ended by the time the page opened is left out.
  const [now] = useState(() => Date.now());
  const upcoming = (schedules.data ?? []).filter((schedule) => new Date(schedule.end).getTime() >= now).sort((a, b) => a.start.localeCompare(b.start));
  return (
    <section className="service-page">
      <h1 className="page-title">{title}</h1>
      {schedules.isPending ? (
        <Skeletons label="Carregando eventos" count={3} className="service-skeletons" itemClassName="service-skeletons__item skeleton-shimmer" />
      ) : upcoming.length === 0 ? (
        <p className="list-page__empty">{NO_EVENTS_TEXT}</p>
      ) : (
        <ul className="service-events" aria-label={title}>
          {upcoming.map((schedule) => (
            <li key={schedule.id} className="service-card">
              <h2 className="service-card__title">
                <Link to={schedulePath(schedule.id)}>{schedule.name}</Link>
              </h2>
              <p className="service-card__subtitle">
                {formatMoment(schedule.start, timeZone)} – {formatMoment(schedule.end, timeZone)}
              </p>
            </li>
          ))}
        </ul>
      )}
      <p>
        <Link className="button button--secondary" to="/homepage/calendario">
          Ver o calendário completo
        </Link>
      </p>
    </section>
  );
}

// /homepage/calendario/:id: one event, with its picture, its start and end (DD/MM/YYYY HH:mm
// on the station's clock, spec 002 section 9), what the day is and its description.
import { Link, useLocation, useParams } from "react-router";
import { formatMoment, zonedMoment } from "@/features/calendar/calendar-dates";
import { useSchedule } from "@/features/calendar/api/get-schedules";
import type { CalendarReturn } from "@/features/calendar/components/schedule-link";
import { useStation } from "@/features/stations";
import { ApiError } from "@/lib/api-client";
import "./calendar.css";

export const SCHEDULE_NOT_FOUND_TITLE = "Evento não encontrado";
export const SCHEDULE_LOAD_FAILED = "Não foi possível carregar o evento.";
const BACK_TEXT = "Voltar ao calendário";

function returnSearch(state: unknown): string | null {
  const search = (state as Partial<CalendarReturn> | null)?.calendarSearch;
  return typeof search === "string" ? search : null;
}

export function SchedulePage() {
  const timeZone = useStation().time_zone;
  const { id } = useParams();
  const scheduleId = /^\d{1,15}$/.test(id ?? "") ? Number(id) : 0;
  const schedule = useSchedule(scheduleId);
  const cameFrom = returnSearch(useLocation().state);

  const back = (date?: string) => (
    <Link className="button button--secondary" to={`/homepage/calendario${cameFrom ?? (date ? `?data=${date}` : "")}`}>
      {BACK_TEXT}
    </Link>
  );

  const notFound = scheduleId === 0 || (schedule.error instanceof ApiError && schedule.error.status === 404);
  if (notFound) {
    return (
      <section className="schedule-page">
        <h1 className="page-title">{SCHEDULE_NOT_FOUND_TITLE}</h1>
        <p>Este evento não está disponível.</p>
        {back()}
      </section>
    );
  }
  if (schedule.isPending) {
    return <div className="schedule-page__loading skeleton-shimmer" role="status" aria-label="Carregando evento" />;
  }
  if (schedule.isError) {
    return (
      <section className="schedule-page">
        <h1 className="page-title">Evento</h1>
        <div role="alert">
          <p>{SCHEDULE_LOAD_FAILED}</p>
          <button type="button" className="button button--primary" onClick={() => void schedule.refetch()}>
            Tentar novamente
          </button>
        </div>
        {back()}
      </section>
    );
  }

  const event = schedule.data;
  return (
    <article className="schedule-page">
      <h1 className="page-title">{event.name}</h1>
      {event.image && <img className="schedule-page__image" src={event.image} alt="" />}
      <dl className="schedule-page__facts">
        <div>
          <dt>Início</dt>
          <dd>{formatMoment(event.start, timeZone)}</dd>
        </div>
        <div>
          <dt>Fim</dt>
          <dd>{formatMoment(event.end, timeZone)}</dd>
        </div>
        {event.day && (
          <div>
            <dt>Dia</dt>
            <dd>{event.day.description}</dd>
          </div>
        )}
      </dl>
      {event.description && <p className="schedule-page__description">{event.description}</p>}
      {back(zonedMoment(event.start, timeZone).date)}
    </article>
  );
}

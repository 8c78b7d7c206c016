// /homepage/calendario (spec 002 "News, calendar..."): the station's events in month, week,
// day and list views, on the station's clock (docs/decisions.md "The station calendar").
// The view and its day are in the address (?visao=semana&data=2026-12-10), so the back
// button and an event's "back" link return to the same view.
import { useMemo } from "react";
import { useSearchParams } from "react-router";
import {
  CALENDAR_VIEWS,
  isCivilDate,
  longDay,
  monthTitle,
  periodDays,
  queryWindow,
  shiftAnchor,
  todayIn,
  type CalendarView,
  type CivilDate,
} from "@/features/calendar/calendar-dates";
import { formatCivilDate } from "@/lib/dates";
import { schedulesByDay } from "@/features/calendar/calendar-layout";
import { useSchedules } from "@/features/calendar/api/get-schedules";
import { ListView, NO_EVENTS_TEXT } from "@/features/calendar/components/list-view";
import { MonthView } from "@/features/calendar/components/month-view";
import { TimeGridView } from "@/features/calendar/components/time-grid-view";
import { useStation } from "@/features/stations";
import "./calendar.css";

export const CALENDAR_TITLE = "Eventos";
export const CALENDAR_LOAD_FAILED = "Não foi possível carregar os eventos.";

const VIEW_LABELS: Record<CalendarView, string> = { mes: "Mês", semana: "Semana", dia: "Dia", lista: "Lista" };
const STEP_LABELS: Record<CalendarView, [string, string]> = {
  mes: ["Mês anterior", "Próximo mês"],
  semana: ["Semana anterior", "Próxima semana"],
  dia: ["Dia anterior", "Próximo dia"],
  lista: ["Mês anterior", "Próximo mês"],
};

function viewOf(text: string | null): CalendarView {
  return CALENDAR_VIEWS.find((view) => view === text) ?? "mes";
}

function periodTitle(view: CalendarView, anchor: CivilDate, days: CivilDate[]): string {
  switch (view) {
    case "mes":
    case "lista":
      return monthTitle(anchor);
    case "semana":
      return `${formatCivilDate(days[0] ?? anchor)} a ${formatCivilDate(days[days.length - 1] ?? anchor)}`;
    case "dia":
      return longDay(anchor);
  }
}

/** The zone as members read it ("Horário Padrão de Brasília"), or its IANA name. */
function zoneName(timeZone: string): string {
  const parts = new Intl.DateTimeFormat("pt-BR", { timeZone, timeZoneName: "long" }).formatToParts(new Date());
  return parts.find((part) => part.type === "timeZoneName")?.value ?? timeZone;
}

export function CalendarPage() {
  const timeZone = useStation().time_zone;
  const [params, setParams] = useSearchParams();
  const today = todayIn(timeZone);
  const view = viewOf(params.get("visao"));
  const dateParam = params.get("data");
  const anchor = isCivilDate(dateParam) ? dateParam : today;
  const days = useMemo(() => periodDays(view, anchor), [view, anchor]);
  const schedules = useSchedules(useMemo(() => queryWindow(days), [days]));
  const byDay = useMemo(() => schedulesByDay(schedules.data ?? [], days, timeZone), [schedules.data, days, timeZone]);
  const title = periodTitle(view, anchor, days);
  const empty = [...byDay.values()].every((events) => events.length === 0);

  const show = (next: CalendarView, date: CivilDate) => setParams({ visao: next, data: date });

  return (
    <section className="calendar-page">
      <h1 className="page-title">{CALENDAR_TITLE}</h1>
      <div className="calendar-toolbar">
        <div className="calendar-toolbar__steps" role="group" aria-label="Período">
          <button type="button" className="button button--secondary" onClick={() => show(view, shiftAnchor(view, anchor, -1))}>
            <span aria-hidden="true">‹</span>
            <span className="calendar-visually-hidden">{STEP_LABELS[view][0]}</span>
          </button>
          <button type="button" className="button button--secondary" onClick={() => show(view, today)}>
            Hoje
          </button>
          <button type="button" className="button button--secondary" onClick={() => show(view, shiftAnchor(view, anchor, 1))}>
            <span aria-hidden="true">›</span>
            <span className="calendar-visually-hidden">{STEP_LABELS[view][1]}</span>
          </button>
        </div>
        <h2 className="calendar-toolbar__title" aria-live="polite">
          {title}
        </h2>
        <div className="calendar-toolbar__views" role="group" aria-label="Visualização">
          {CALENDAR_VIEWS.map((option) => (
            <button
              key={option}
              type="button"
              className={`button ${option === view ? "button--primary" : "button--secondary"}`}
              aria-pressed={option === view}
              onClick={() => show(option, anchor)}
            >
              {VIEW_LABELS[option]}
            </button>
          ))}
        </div>
      </div>
      <p className="calendar-page__zone">Fuso horário: {zoneName(timeZone)}</p>

      {schedules.isPending ? (
        <div className="calendar-page__loading skeleton-shimmer" role="status" aria-label="Carregando eventos" />
      ) : schedules.isError && !schedules.data ? (
        <div className="calendar-page__failure" role="alert">
          <p>{CALENDAR_LOAD_FAILED}</p>
          <button type="button" className="button button--primary" onClick={() => void schedules.refetch()}>
            Tentar novamente
          </button>
        </div>
      ) : (
        <div className="calendar-page__view" aria-busy={schedules.isPlaceholderData}>
          {view === "lista" ? (
            <ListView days={days} byDay={byDay} timeZone={timeZone} />
          ) : (
            <>
              {empty && <p className="list-page__empty">{NO_EVENTS_TEXT}</p>}
              {view === "mes" ? (
                <MonthView days={days} byDay={byDay} anchor={anchor} today={today} timeZone={timeZone} caption={title} />
              ) : (
                <TimeGridView days={days} byDay={byDay} today={today} timeZone={timeZone} />
              )}
            </>
          )}
        </div>
      )}
    </section>
  );
}

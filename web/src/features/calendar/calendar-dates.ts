// The calendar's dates: civil days ("YYYY-MM-DD") on the station's clock, the periods each
// view shows, the window the API is asked for, and where an event sits in a day's
// 15-minute slots (spec 002 section 9). Day arithmetic is done on UTC dates, which have no
// daylight saving, so a day is always 24 hours here; only instants are read in the zone.
import { formatCivilDate } from "@/lib/dates";

export type CalendarView = "mes" | "semana" | "dia" | "lista";

export const CALENDAR_VIEWS: readonly CalendarView[] = ["mes", "semana", "dia", "lista"];

/** Minutes in one slot of the week and day views. */
export const SLOT_MINUTES = 15;
export const SLOTS_PER_DAY = (24 * 60) / SLOT_MINUTES;

const MS_PER_DAY = 86_400_000;

/** A day as "YYYY-MM-DD". */
export type CivilDate = string;

const CIVIL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function toUtcDate(date: CivilDate): Date {
  const [, year, month, day] = CIVIL_DATE.exec(date) ?? [];
  return new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
}

function fromUtcDate(date: Date): CivilDate {
  return date.toISOString().slice(0, 10);
}

/** Whether `text` is a real day ("2026-02-30" is not). */
export function isCivilDate(text: string | null): text is CivilDate {
  return text !== null && CIVIL_DATE.test(text) && fromUtcDate(toUtcDate(text)) === text;
}

export function addDays(date: CivilDate, days: number): CivilDate {
  return fromUtcDate(new Date(toUtcDate(date).getTime() + days * MS_PER_DAY));
}

/** The same day `months` later, or that month's last day when it is shorter. */
export function addMonths(date: CivilDate, months: number): CivilDate {
  const start = toUtcDate(date);
  const target = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(start.getUTCDate(), lastDay));
  return fromUtcDate(target);
}

/** Days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: CivilDate, to: CivilDate): number {
  return Math.round((toUtcDate(to).getTime() - toUtcDate(from).getTime()) / MS_PER_DAY);
}

/** 0 for Sunday: Brazilian calendars start their weeks on Sunday. */
export function weekdayOf(date: CivilDate): number {
  return toUtcDate(date).getUTCDay();
}

export function monthOf(date: CivilDate): string {
  return date.slice(0, 7);
}

/** An instant on the station's clock: its day and the minutes since that day's midnight. */
export interface ZonedMoment {
  date: CivilDate;
  minutes: number;
}

const zonedFormats = new Map<string, Intl.DateTimeFormat>();

function zonedFormat(timeZone: string): Intl.DateTimeFormat {
  let format = zonedFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    zonedFormats.set(timeZone, format);
  }
  return format;
}

export function zonedMoment(instant: string | Date, timeZone: string): ZonedMoment {
  const parts = Object.fromEntries(
    zonedFormat(timeZone)
      .formatToParts(typeof instant === "string" ? new Date(instant) : instant)
      .map((part) => [part.type, part.value]),
  );
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    minutes: Number(parts.hour) * 60 + Number(parts.minute),
  };
}

export function todayIn(timeZone: string, now: Date = new Date()): CivilDate {
  return zonedMoment(now, timeZone).date;
}

/** The days a view shows around `anchor`: the month's six weeks (Sunday first), the week, the day, or the month's days (list). */
export function periodDays(view: CalendarView, anchor: CivilDate): CivilDate[] {
  switch (view) {
    case "mes": {
      const first = `${monthOf(anchor)}-01`;
      const start = addDays(first, -weekdayOf(first));
      return Array.from({ length: 42 }, (_, index) => addDays(start, index));
    }
    case "semana": {
      const start = addDays(anchor, -weekdayOf(anchor));
      return Array.from({ length: 7 }, (_, index) => addDays(start, index));
    }
    case "dia":
      return [anchor];
    case "lista": {
      const first = `${monthOf(anchor)}-01`;
      const length = daysBetween(first, addMonths(first, 1));
      return Array.from({ length }, (_, index) => addDays(first, index));
    }
  }
}

/** Where previous and next lead from `anchor`. */
export function shiftAnchor(view: CalendarView, anchor: CivilDate, step: 1 | -1): CivilDate {
  switch (view) {
    case "mes":
    case "lista":
      return addMonths(anchor, step);
    case "semana":
      return addDays(anchor, 7 * step);
    case "dia":
      return addDays(anchor, step);
  }
}

/**
 * The instants the API is asked for: the period's days with a day more on each side, so
 * every zone's midnight (UTC-12 to UTC+14) falls inside; the page keeps what falls on its
 * days. A month's six weeks ask for 44 days, under the API's 62.
 */
export function queryWindow(days: CivilDate[]): { from: string; to: string } {
  const first = days[0] ?? "1970-01-01";
  const last = days[days.length - 1] ?? first;
  return {
    from: toUtcDate(addDays(first, -1)).toISOString(),
    to: toUtcDate(addDays(last, 2)).toISOString(),
  };
}

export interface Span {
  start: string;
  end: string;
}

/** The days an event covers on the station's clock; one that ends at midnight does not cover the next day. */
export function daysCovered(span: Span, timeZone: string): CivilDate[] {
  const start = zonedMoment(span.start, timeZone);
  const end = zonedMoment(span.end, timeZone);
  const lastDay = end.minutes === 0 && end.date > start.date ? addDays(end.date, -1) : end.date;
  const count = Math.max(0, daysBetween(start.date, lastDay)) + 1;
  return Array.from({ length: count }, (_, index) => addDays(start.date, index));
}

/** The slots an event fills on `day` (0-based, end exclusive): at least one, however short. */
export function slotsOn(span: Span, day: CivilDate, timeZone: string): { first: number; end: number } {
  const start = zonedMoment(span.start, timeZone);
  const end = zonedMoment(span.end, timeZone);
  const startMinutes = start.date < day ? 0 : start.minutes;
  const endMinutes = end.date > day ? 24 * 60 : end.minutes;
  const first = Math.min(SLOTS_PER_DAY - 1, Math.floor(startMinutes / SLOT_MINUTES));
  const last = Math.ceil(endMinutes / SLOT_MINUTES);
  return { first, end: Math.max(first + 1, Math.min(SLOTS_PER_DAY, last)) };
}

/** "HH:mm" of minutes since midnight. */
export function formatMinutes(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  return `${String(hours).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}

/** "DD/MM/YYYY HH:mm" of an instant on the station's clock (spec 002 section 9). */
export function formatMoment(instant: string, timeZone: string): string {
  const moment = zonedMoment(instant, timeZone);
  return `${formatCivilDate(moment.date)} ${formatMinutes(moment.minutes)}`;
}

const WEEKDAYS = ["Domingo", "Segunda-feira", "Terça-feira", "Quarta-feira", "Quinta-feira", "Sexta-feira", "Sábado"];
export const WEEKDAY_SHORT = ["Dom", "Seg", "Ter", "Qua", "Qui", "Sex", "Sáb"];
const MONTHS = [
  "Janeiro",
  "Fevereiro",
  "Março",
  "Abril",
  "Maio",
  "Junho",
  "Julho",
  "Agosto",
  "Setembro",
  "Outubro",
  "Novembro",
  "Dezembro",
];

export function weekdayName(date: CivilDate): string {
  return WEEKDAYS[weekdayOf(date)] ?? "";
}

/** "Quinta-feira, 10/12/2026". */
export function longDay(date: CivilDate): string {
  return `${weekdayName(date)}, ${formatCivilDate(date)}`;
}

/** "Dezembro de 2026". */
export function monthTitle(date: CivilDate): string {
  const [year, month] = date.split("-");
  return `${MONTHS[Number(month) - 1] ?? ""} de ${year}`;
}

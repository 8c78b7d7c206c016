// Schedules as GET /schedules/ and GET /schedules//{id} answer them.
import { periodDays, queryWindow, type CalendarView } from "@/features/calendar/calendar-dates";
import { schedulesPath } from "@/features/calendar/api/get-schedules";
import type { Schedule } from "@/types/api";

/** The stubbed call of a view of the demo station (id 7) around `date`. */
export function schedulesCall(view: CalendarView, date: string): string {
  return `GET /api${schedulesPath(7, queryWindow(periodDays(view, date)))}`;
}

/** A schedule on 10/12/2026, 14:00 to 18:00 in Brasília (UTC-3). */
export function buildSchedule(overrides: Partial<Schedule> = {}): Schedule {
  return {
    id: 1,
    name: "Torneio de futebol society",
    description: "Times de sete jogadores.",
    image: "/api/media/demo/calendar/4.png",
    start: "2026-12-10T17:00:00Z",
    end: "2026-12-10T21:00:00Z",
    day: null,
    ...overrides,
  };
}

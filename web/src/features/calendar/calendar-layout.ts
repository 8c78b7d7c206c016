// Where the schedules go in a view: which days each one shows on, and, in the week and day
// views, its 15-minute slots and its lane beside the events it overlaps.
import { daysCovered, slotsOn, type CivilDate } from "@/features/calendar/calendar-dates";
import type { Schedule } from "@/types/api";

/** The schedules shown on each of `days`, in the API's order (earliest first). */
export function schedulesByDay(schedules: Schedule[], days: CivilDate[], timeZone: string): Map<CivilDate, Schedule[]> {
  const byDay = new Map<CivilDate, Schedule[]>(days.map((day) => [day, []]));
  for (const schedule of schedules) {
    for (const day of daysCovered(schedule, timeZone)) byDay.get(day)?.push(schedule);
  }
  return byDay;
}

export interface PlacedSchedule {
  schedule: Schedule;
  /** First slot (0-based) and the slot after the last. */
  first: number;
  end: number;
  /** Its column among the day's overlapping events (0-based). */
  lane: number;
}

/** A day's schedules in its slots; overlapping ones side by side, each in the first free lane. */
export function placeInSlots(
  schedules: Schedule[],
  day: CivilDate,
  timeZone: string,
): { placed: PlacedSchedule[]; lanes: number } {
  const laneEnds: number[] = [];
  const placed = schedules
    .map((schedule) => ({ schedule, ...slotsOn(schedule, day, timeZone) }))
    .sort((a, b) => a.first - b.first || b.end - a.end)
    .map((slots) => {
      let lane = laneEnds.findIndex((end) => end <= slots.first);
      if (lane === -1) lane = laneEnds.length;
      laneEnds[lane] = slots.end;
      return { ...slots, lane };
    });
  return { placed, lanes: Math.max(1, laneEnds.length) };
}

import { describe, expect, it } from "vitest";
import {
  addMonths,
  daysCovered,
  formatMoment,
  isCivilDate,
  periodDays,
  queryWindow,
  shiftAnchor,
  slotsOn,
  zonedMoment,
} from "@/features/calendar/calendar-dates";

const BRASILIA = "America/Sao_Paulo";

describe("calendar dates", () => {
  it("reads an instant on the station's clock", () => {
    expect(zonedMoment("2026-12-11T01:30:00Z", BRASILIA)).toEqual({ date: "2026-12-10", minutes: 22 * 60 + 30 });
    expect(zonedMoment("2026-12-11T01:30:00Z", "America/Rio_Branco")).toEqual({ date: "2026-12-10", minutes: 20 * 60 + 30 });
    expect(formatMoment("2026-12-10T03:05:00Z", BRASILIA)).toBe("10/12/2026 00:05");
  });

  it("shows a month as six weeks starting on Sunday", () => {
    const days = periodDays("mes", "2026-12-10");
    expect(days).toHaveLength(42);
    expect(days[0]).toBe("2026-11-29");
    expect(days[2]).toBe("2026-12-01");
    expect(days[41]).toBe("2027-01-09");
    expect(periodDays("semana", "2026-12-10")).toEqual([
      "2026-12-06",
      "2026-12-07",
      "2026-12-08",
      "2026-12-09",
      "2026-12-10",
      "2026-12-11",
      "2026-12-12",
    ]);
    expect(periodDays("lista", "2027-02-14")).toHaveLength(28);
  });

  it("asks the API for the period with a day on each side, within its 62 days", () => {
    const window = queryWindow(periodDays("mes", "2026-12-10"));
    expect(window).toEqual({ from: "2026-11-28T00:00:00.000Z", to: "2027-01-11T00:00:00.000Z" });
  });

  it("steps by month (keeping the day where it exists), week and day", () => {
    expect(addMonths("2027-01-31", 1)).toBe("2027-02-28");
    expect(shiftAnchor("mes", "2026-12-10", -1)).toBe("2026-11-10");
    expect(shiftAnchor("semana", "2026-12-29", 1)).toBe("2027-01-05");
    expect(shiftAnchor("dia", "2026-12-31", 1)).toBe("2027-01-01");
  });

  it("puts an event in its 15-minute slots, at least one", () => {
    const afternoon = { start: "2026-12-10T17:00:00Z", end: "2026-12-10T21:00:00Z" };
    expect(slotsOn(afternoon, "2026-12-10", BRASILIA)).toEqual({ first: 56, end: 72 });
    const short = { start: "2026-12-10T17:05:00Z", end: "2026-12-10T17:10:00Z" };
    expect(slotsOn(short, "2026-12-10", BRASILIA)).toEqual({ first: 56, end: 57 });
  });

  it("spreads an event over the days it covers, not the day it ends at midnight", () => {
    const overnight = { start: "2026-12-10T23:00:00Z", end: "2026-12-12T03:00:00Z" };
    expect(daysCovered(overnight, BRASILIA)).toEqual(["2026-12-10", "2026-12-11"]);
    expect(slotsOn(overnight, "2026-12-11", BRASILIA)).toEqual({ first: 0, end: 96 });
    expect(slotsOn(overnight, "2026-12-10", BRASILIA)).toEqual({ first: 80, end: 96 });
  });

  it("accepts only real days in the address", () => {
    expect(isCivilDate("2026-12-10")).toBe(true);
    expect(isCivilDate("2026-02-30")).toBe(false);
    expect(isCivilDate("10/12/2026")).toBe(false);
  });
});

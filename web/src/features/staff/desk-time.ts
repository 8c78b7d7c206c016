// Appointment times on the station's clock (`stations.time_zone`): the member's page, the
// confirmation e-mail and the reminder all say the hour there, so staff type and read it
// there too, whatever the zone of the computer they sit at.

/** A wall-clock reading in a zone: "2026-12-03" and "09:00". */
export interface WallClock {
  date: string;
  time: string;
}

const formats = new Map<string, Intl.DateTimeFormat>();

function formatIn(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    });
    formats.set(timeZone, format);
  }
  return format;
}

function partsAt(instant: Date, timeZone: string): Record<string, number> {
  return Object.fromEntries(
    formatIn(timeZone)
      .formatToParts(instant)
      .filter((part) => part.type !== "literal")
      .map((part) => [part.type, Number(part.value)]),
  );
}

/** Minutes the zone's clock is ahead of UTC at `instant` (São Paulo: -180). */
function offsetMinutesAt(instant: Date, timeZone: string): number {
  const parts = partsAt(instant, timeZone);
  const asUtc = Date.UTC(parts.year ?? 0, (parts.month ?? 1) - 1, parts.day ?? 1, parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0);
  const whole = Math.floor(instant.getTime() / 1000) * 1000;
  return Math.round((asUtc - whole) / 60_000);
}

const pad = (value: number) => String(value).padStart(2, "0");

/** The wall clock of an RFC 3339 instant in the zone. */
export function wallClockOf(iso: string, timeZone: string): WallClock {
  const parts = partsAt(new Date(iso), timeZone);
  return {
    date: `${parts.year ?? 0}-${pad(parts.month ?? 1)}-${pad(parts.day ?? 1)}`,
    time: `${pad(parts.hour ?? 0)}:${pad(parts.minute ?? 0)}`,
  };
}

/** "03/12/2026 09:00" on the zone's clock; `fallback` without an instant. */
export function formatInZone(iso: string | null, timeZone: string, fallback = "—"): string {
  if (!iso || Number.isNaN(new Date(iso).getTime())) return fallback;
  const { date, time } = wallClockOf(iso, timeZone);
  const [year, month, day] = date.split("-");
  return `${day}/${month}/${year} ${time}`;
}

/**
 * The instant a wall clock reads in the zone, as RFC 3339 with the zone's offset then
 * ("2026-12-03T09:00:00-03:00"); null for a date or time that is not one. A time a
 * daylight-saving jump skips is read with the offset before the jump.
 */
export function zonedInstant({ date, time }: WallClock, timeZone: string): string | null {
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const clock = /^(\d{2}):(\d{2})$/.exec(time);
  if (!day || !clock) return null;
  const [year, month, dayOfMonth, hour, minute] = [day[1], day[2], day[3], clock[1], clock[2]].map(Number) as [number, number, number, number, number];
  if (month < 1 || month > 12 || dayOfMonth < 1 || dayOfMonth > 31 || hour > 23 || minute > 59) return null;
  const asUtc = Date.UTC(year, month - 1, dayOfMonth, hour, minute);
  if (new Date(asUtc).getUTCDate() !== dayOfMonth) return null;
  // The offset at the wall clock read as UTC is a first guess; the offset at that guess settles it.
  const first = offsetMinutesAt(new Date(asUtc), timeZone);
  const offset = offsetMinutesAt(new Date(asUtc - first * 60_000), timeZone);
  const sign = offset < 0 ? "-" : "+";
  const abs = Math.abs(offset);
  return `${date}T${time}:00${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** The zone's "today", for the date input's minimum. */
export function todayInZone(timeZone: string, now: Date = new Date()): string {
  return wallClockOf(now.toISOString(), timeZone).date;
}

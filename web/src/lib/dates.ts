// API timestamps (RFC 3339) as Brazilians read them, in the browser's time zone.

const DATE_FORMAT = new Intl.DateTimeFormat("pt-BR", { day: "2-digit", month: "2-digit", year: "numeric" });

const DATE_TIME_FORMAT = new Intl.DateTimeFormat("pt-BR", {
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
});

function parse(iso: string | null | undefined): Date | null {
  if (!iso) return null;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** DD/MM/AAAA; `fallback` when the timestamp is absent or not a date. */
export function formatDate(iso: string | null | undefined, fallback = ""): string {
  const date = parse(iso);
  return date ? DATE_FORMAT.format(date) : fallback;
}

/** DD/MM/AAAA of a civil date ("2025-03-14"), no time zone moving it a day; `fallback` for anything else. */
export function formatCivilDate(date: string | null | undefined, fallback = "—"): string {
  const civil = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date ?? "");
  return civil ? `${civil[3]}/${civil[2]}/${civil[1]}` : fallback;
}

/** DD/MM/AAAA HH:MM:SS; "—" (or `fallback`) when the timestamp is absent or not a date. */
export function formatDateTime(iso: string | null | undefined, fallback = "—"): string {
  const date = parse(iso);
  // Intl puts a comma between the date and the time in pt-BR.
  return date ? DATE_TIME_FORMAT.format(date).replace(",", "") : fallback;
}

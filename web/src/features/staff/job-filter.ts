// The job list's filter, kept in the address (?queue=&state=&from=&to=&q=&station_id=&before=)
// so a filtered list can be reloaded, shared and reached from the overview's counts.
import { isJobState } from "@/features/staff/job-states";
import type { JobState, OpsJobFilter } from "@/types/api";

/** The filter as the form shows it; from/to are datetime-local values in the browser's zone. */
export interface JobFilterFields {
  queue: string;
  state: JobState | "";
  from: string;
  to: string;
  q: string;
  /** A station's id as text, or "" for every station in scope. */
  station_id: string;
}

export const EMPTY_FILTER_FIELDS: JobFilterFields = { queue: "", state: "", from: "", to: "", q: "", station_id: "" };

const FIELD_KEYS = ["queue", "state", "from", "to", "q", "station_id"] as const;

/** A station id as the API takes it: a positive integer, else undefined. */
function stationIdOf(text: string | null): number | undefined {
  if (text === null || !/^\d+$/.test(text.trim())) return undefined;
  const id = Number(text);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

export function fieldsFromSearch(params: URLSearchParams): JobFilterFields {
  const state = params.get("state");
  return {
    queue: params.get("queue") ?? "",
    state: isJobState(state) ? state : "",
    from: params.get("from") ?? "",
    to: params.get("to") ?? "",
    q: params.get("q") ?? "",
    station_id: String(stationIdOf(params.get("station_id")) ?? ""),
  };
}

export function pageFromSearch(params: URLSearchParams): number {
  const page = Number(params.get("page"));
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

/** The job list's page: the id it starts below (the previous page's cursor), or null for the newest. */
export function cursorFromSearch(params: URLSearchParams): string | null {
  const before = params.get("before");
  return before === null || before.trim() === "" ? null : before.trim();
}

/** The address of a filter at a page (below `before`); empty fields and the first page are left out. */
export function searchFromFields(fields: JobFilterFields, before: string | null = null): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of FIELD_KEYS) {
    const value = fields[key].trim();
    if (value !== "") params.set(key, value);
  }
  if (before !== null) params.set("before", before);
  return params;
}

/** A datetime-local value as RFC 3339, or undefined when it is empty or not a date. */
function toInstant(local: string): string | undefined {
  if (local.trim() === "") return undefined;
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** What the API is asked for: only the fields that are set. */
export function apiFilterOf(fields: JobFilterFields): OpsJobFilter {
  const filter: OpsJobFilter = {};
  if (fields.queue.trim()) filter.queue = fields.queue.trim();
  if (fields.state) filter.state = fields.state;
  const from = toInstant(fields.from);
  if (from) filter.from = from;
  const to = toInstant(fields.to);
  if (to) filter.to = to;
  if (fields.q.trim()) filter.q = fields.q.trim();
  const stationId = stationIdOf(fields.station_id);
  if (stationId !== undefined) filter.station_id = stationId;
  return filter;
}

// The station's schedules (GET /schedules/, spec 002 section 7 "Other"), asked for the
// instants a view covers, and one schedule (GET /schedules//{id}: the contract's double slash).
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { useStation } from "@/features/stations";
import { api } from "@/lib/api-client";
import type { Schedule } from "@/types/api";

export interface ScheduleWindow {
  from: string;
  to: string;
}

export const scheduleKeys = {
  window: (stationId: number, window: ScheduleWindow) => ["schedules", stationId, window.from, window.to] as const,
  one: (id: number) => ["schedules", "one", id] as const,
};

export function schedulesPath(stationId: number, window: ScheduleWindow): string {
  const from = encodeURIComponent(window.from);
  const to = encodeURIComponent(window.to);
  return `/schedules/?where[station_id]=${stationId}&where[end][gte]=${from}&where[start][lte]=${to}`;
}

export function getSchedules(stationId: number, window: ScheduleWindow, { signal }: { signal?: AbortSignal } = {}) {
  return api.get<Schedule[]>(schedulesPath(stationId, window), { signal });
}

export function schedulesQueryOptions(stationId: number, window: ScheduleWindow) {
  return queryOptions({
    queryKey: scheduleKeys.window(stationId, window),
    queryFn: ({ signal }) => getSchedules(stationId, window, { signal }),
  });
}

/** The schedules of a window; the previous window's stay on screen while the next loads. */
export function useSchedules(window: ScheduleWindow) {
  const stationId = useStation().id;
  return useQuery({ ...schedulesQueryOptions(stationId, window), placeholderData: keepPreviousData });
}

export function getSchedule(id: number, { signal }: { signal?: AbortSignal } = {}) {
  return api.get<Schedule>(`/schedules//${id}`, { signal });
}

/** One schedule; `id` 0 (an address that names none) asks for nothing. */
export function useSchedule(id: number) {
  return useQuery({
    ...queryOptions({
      queryKey: scheduleKeys.one(id),
      queryFn: ({ signal }) => getSchedule(id, { signal }),
    }),
    enabled: id > 0,
  });
}

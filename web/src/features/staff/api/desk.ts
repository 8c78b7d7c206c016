// The service desk in the console (docs/api-services.md, "The desk in the console"): which
// desks a staff member reaches, each desk's appointments, cases and suggestions, and what
// staff do there (confirm, conclude, cancel, record a co-payment or a case, publish news;
// all audited). A desk grant alone opens these, without the console's own grant.
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { invalidateOpsData } from "@/features/staff/api/ops-keys";
import type { DeskName } from "@/features/staff/desk-labels";
import { api } from "@/lib/api-client";
import { OWN_ERROR_TEXT } from "@/lib/query-client";
import type {
  AppointmentStatus,
  DeskAppointment,
  DeskAppointmentPage,
  DeskCase,
  DeskCaseInput,
  DeskCasePage,
  DeskConfirmation,
  DeskCopayInput,
  DeskMe,
  DeskNewsCreated,
  DeskNewsInput,
  DeskOffice,
  DeskSuggestionPage,
} from "@/types/api";

export const DESK_PER_PAGE = 20;

/** The actions without a body (the route's last segment). */
export type DeskAppointmentAction = "done" | "absent" | "cancel";

// Under "ops" so a staff action refreshes them too (invalidateOpsData); `me` second, as the
// console's own, so that refresh leaves who is signed in alone.
export const deskKeys = {
  me: ["ops", "me", "desk"] as const,
  appointments: (stationId: number, desk: DeskName, status: AppointmentStatus | null, page: number) =>
    ["ops", "desk", stationId, desk, "appointments", status, page] as const,
  offices: (stationId: number, desk: DeskName) => ["ops", "desk", stationId, desk, "offices"] as const,
  cases: (stationId: number, desk: DeskName, cpf: string, page: number) => ["ops", "desk", stationId, desk, "cases", cpf, page] as const,
  suggestions: (stationId: number, page: number) => ["ops", "desk", stationId, "political", "suggestions", page] as const,
};

function deskPath(stationId: number, desk: DeskName): string {
  return `/ops/stations/${stationId}/desk/${desk}`;
}

function pageQuery(page: number, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams(extra);
  query.set("page", String(page));
  query.set("per_page", String(DESK_PER_PAGE));
  return query.toString();
}

export function deskMeQueryOptions() {
  return queryOptions({ queryKey: deskKeys.me, queryFn: ({ signal }) => api.get<DeskMe>("/ops/desk/me", { signal }) });
}

/** The desks the signed-in staff member reaches (403 when none). */
export function useDeskMe({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...deskMeQueryOptions(), enabled });
}

export function appointmentsPath(stationId: number, desk: DeskName, status: AppointmentStatus | null, page: number): string {
  return `${deskPath(stationId, desk)}/appointments?${pageQuery(page, status ? { status } : {})}`;
}

export function useDeskAppointments(stationId: number, desk: DeskName, status: AppointmentStatus | null, page: number) {
  return useQuery({
    queryKey: deskKeys.appointments(stationId, desk, status, page),
    queryFn: ({ signal }) => api.get<DeskAppointmentPage>(appointmentsPath(stationId, desk, status, page), { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useDeskOffices(stationId: number, desk: DeskName) {
  return useQuery({
    queryKey: deskKeys.offices(stationId, desk),
    queryFn: ({ signal }) => api.get<DeskOffice[]>(`${deskPath(stationId, desk)}/offices`, { signal }),
  });
}

/** Concludes, marks absent or cancels an appointment; the desk's lists are read again. */
export function useDeskAppointmentAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: number; action: DeskAppointmentAction }) =>
      api.post<DeskAppointment>(`/ops/desk/appointments/${id}/${action}`),
    onSettled: () => invalidateOpsData(queryClient),
  });
}

/** Confirms (or re-schedules) an appointment; the dialog shows a refusal itself. */
export function useConfirmAppointment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, confirmation }: { id: number; confirmation: DeskConfirmation }) =>
      api.post<DeskAppointment>(`/ops/desk/appointments/${id}/confirm`, confirmation),
    meta: OWN_ERROR_TEXT,
    onSettled: () => invalidateOpsData(queryClient),
  });
}

/** Records a health appointment's co-payment (half of it credited as cashback). */
export function useRecordCopay() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, amountCents }: { id: number; amountCents: number }) => {
      const body: DeskCopayInput = { amount_cents: amountCents };
      return api.post<DeskAppointment>(`/ops/desk/appointments/${id}/copay`, body);
    },
    meta: OWN_ERROR_TEXT,
    onSettled: () => invalidateOpsData(queryClient),
  });
}

export function casesPath(stationId: number, desk: DeskName, cpf: string, page: number): string {
  return `${deskPath(stationId, desk)}/cases?${pageQuery(page, cpf ? { cpf } : {})}`;
}

/** A page of the desk's cases, of one CPF (digits) or of all. */
export function useDeskCases(stationId: number, desk: DeskName, cpf: string, page: number) {
  return useQuery({
    queryKey: deskKeys.cases(stationId, desk, cpf, page),
    queryFn: ({ signal }) => api.get<DeskCasePage>(casesPath(stationId, desk, cpf, page), { signal }),
    placeholderData: keepPreviousData,
  });
}

/** Records a new case (no id) or edits one; the form shows a refusal itself. */
export function useSaveDeskCase(stationId: number, desk: DeskName) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: number | null; input: DeskCaseInput }) =>
      id === null
        ? api.post<DeskCase>(`${deskPath(stationId, desk)}/cases`, input)
        : api.put<DeskCase>(`/ops/desk/cases/${id}`, input),
    meta: OWN_ERROR_TEXT,
    onSettled: () => invalidateOpsData(queryClient),
  });
}

export function suggestionsPath(stationId: number, page: number): string {
  return `${deskPath(stationId, "political")}/suggestions?${pageQuery(page)}`;
}

export function useDeskSuggestions(stationId: number, page: number) {
  return useQuery({
    queryKey: deskKeys.suggestions(stationId, page),
    queryFn: ({ signal }) => api.get<DeskSuggestionPage>(suggestionsPath(stationId, page), { signal }),
    placeholderData: keepPreviousData,
  });
}

/** Publishes a news item on the station's pages carrying the given tags. */
export function usePublishDeskNews(stationId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: DeskNewsInput) => api.post<DeskNewsCreated>(`/ops/stations/${stationId}/news`, input),
    meta: OWN_ERROR_TEXT,
    onSettled: () => invalidateOpsData(queryClient),
  });
}

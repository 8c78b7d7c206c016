// The member services' calls (docs/api-services.md): a desk's page content, its news a page
// at a time, the member's cases and appointments (by the account's CPF, on the server), a
// request for an appointment and a legal appointment's cancellation. Every call answers 404
// where the station does not offer the desk: the pages are not shown there at all.
import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { NEWS_TAGS, type CaseDesk, type Desk, type NewsDesk } from "@/features/services/desks";
import type {
  AccountingProcess,
  AppointmentCancelled,
  CancelLegalAppointment,
  LegalProcess,
  ServiceAppointment,
  ServiceAppointmentRequest,
  ServiceNewsItem,
  ServicePage,
  ServiceRequestCreated,
} from "@/types/api";
import { api } from "@/lib/api-client";
import { OWN_ERROR_TEXT } from "@/lib/query-client";

/** The news API's page size. */
export const SERVICE_NEWS_PAGE_SIZE = 9;

export const serviceKeys = {
  all: ["services"] as const,
  page: (desk: Desk) => ["services", desk, "page"] as const,
  news: (desk: NewsDesk, tagId: number) => ["services", desk, "news", tagId] as const,
  processes: (desk: CaseDesk) => ["services", desk, "processes"] as const,
  appointments: (desk: CaseDesk) => ["services", desk, "appointments"] as const,
};

export const servicePagePath = (desk: Desk) => `/services/${desk}`;
export const serviceNewsPath = (desk: NewsDesk, page: number, tagId: number = NEWS_TAGS[desk]) =>
  `/${desk}/news?page=${page}&tagId=${tagId}`;
export const processesPath = (desk: CaseDesk) => `/${desk}-processes`;
export const appointmentsPath = (desk: CaseDesk) => `/${desk}-appointments`;
export const CANCEL_LEGAL_APPOINTMENT_PATH = "/cancel-legal-appointments";

export function useServicePage(desk: Desk) {
  return useQuery(
    queryOptions({
      queryKey: serviceKeys.page(desk),
      queryFn: ({ signal }) => api.get<ServicePage>(servicePagePath(desk), { signal }),
    }),
  );
}

export function serviceNewsQueryOptions(desk: NewsDesk, tagId: number = NEWS_TAGS[desk]) {
  return infiniteQueryOptions({
    queryKey: serviceKeys.news(desk, tagId),
    queryFn: ({ pageParam, signal }) => api.get<ServiceNewsItem[]>(serviceNewsPath(desk, pageParam, tagId), { signal }),
    initialPageParam: 1,
    // A short page is the last; past the end the API answers an empty one.
    getNextPageParam: (last, pages) => (last.length < SERVICE_NEWS_PAGE_SIZE ? undefined : pages.length + 1),
  });
}

export function useServiceNews(desk: NewsDesk) {
  return useInfiniteQuery(serviceNewsQueryOptions(desk));
}

/** A case of either desk: accounting's lack legal's `titulo` and `publicadoPortal`. */
export type CaseProcess = AccountingProcess & Partial<Pick<LegalProcess, "titulo" | "publicadoPortal">>;

export function useProcesses(desk: CaseDesk) {
  return useQuery(
    queryOptions({
      queryKey: serviceKeys.processes(desk),
      queryFn: ({ signal }) => api.get<CaseProcess[]>(processesPath(desk), { signal }),
    }),
  );
}

export function useAppointments(desk: CaseDesk) {
  return useQuery(
    queryOptions({
      queryKey: serviceKeys.appointments(desk),
      queryFn: ({ signal }) => api.get<ServiceAppointment[]>(appointmentsPath(desk), { signal }),
    }),
  );
}

/** Asks the desk for an appointment; the list is read again after it. */
export function useRequestAppointment(desk: CaseDesk) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: ServiceAppointmentRequest) => api.post<ServiceRequestCreated>(appointmentsPath(desk), request),
    // The dialog says why, in the catalogue's words ('Erro' without a message).
    meta: OWN_ERROR_TEXT,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: serviceKeys.appointments(desk) }),
  });
}

/** Cancels a legal appointment; the page reads the list again itself (2 seconds after). */
export function useCancelLegalAppointment() {
  return useMutation({
    mutationFn: (request: CancelLegalAppointment) => api.post<AppointmentCancelled>(CANCEL_LEGAL_APPOINTMENT_PATH, request),
    meta: OWN_ERROR_TEXT,
  });
}

// Moderation (docs/api-feed.md "Moderation"): the posts and comments members reported, open
// or already reviewed, paged; support staff keep, hide or remove one (audited).
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ReportedItem, ReportedItemList, ReportedKind, ReportState, ReviewDecision, ReviewRequest } from "@/features/feed";
import { invalidateOpsData, opsKeys } from "@/features/staff/api/ops-keys";
import { api } from "@/lib/api-client";

/**
 * The list's page size: the contract's answer has no per_page, so this is the console's
 * default page (api/src/routes/staff/ops.rs, DEFAULT_PER_PAGE), as the audit's.
 */
export const REPORTS_PER_PAGE = 50;

export interface ReportsFilter {
  state: ReportState;
  /** One station of the caller's scope, or null for all of them. */
  stationId: number | null;
  page: number;
}

export const reportKeys = {
  list: (filter: ReportsFilter) => [...opsKeys.all, "reports", filter] as const,
};

/** The list's query: state, station_id (when one is chosen), page. */
export function reportsSearch({ state, stationId, page }: ReportsFilter): string {
  const params = new URLSearchParams({ state });
  if (stationId !== null) params.set("station_id", String(stationId));
  params.set("page", String(page));
  return params.toString();
}

export function getReports(filter: ReportsFilter, { signal }: { signal?: AbortSignal } = {}) {
  return api.get<ReportedItemList>(`/ops/reports?${reportsSearch(filter)}`, { signal });
}

export function reportsQueryOptions(filter: ReportsFilter) {
  return queryOptions({
    queryKey: reportKeys.list(filter),
    queryFn: ({ signal }) => getReports(filter, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useReports(filter: ReportsFilter) {
  return useQuery(reportsQueryOptions(filter));
}

export interface Review {
  kind: ReportedKind;
  id: number;
  decision: ReviewDecision;
}

export function reviewReport({ kind, id, decision }: Review): Promise<ReportedItem> {
  const body: ReviewRequest = { decision };
  return api.post<ReportedItem>(`/ops/reports/${kind}/${id}/review`, body);
}

/** Keeps, hides or removes a reported item; the lists and the audit log are read again. */
export function useReviewReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: reviewReport,
    onSettled: () => invalidateOpsData(queryClient),
  });
}

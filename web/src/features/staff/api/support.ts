// A station's support messages (docs/api-support.md, "Console"): what visitors and members
// sent through 'Fale conosco', newest first, open or answered. Support staff answer one
// (e-mailed to its sender, audited); viewers only read.
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { invalidateOpsData, opsKeys } from "@/features/staff/api/ops-keys";
import { api } from "@/lib/api-client";
import type { OpsSupportMessage, OpsSupportMessages } from "@/types/api";

export type { OpsSupportMessage, OpsSupportMessages };

/** The list's filter; null is every message. */
export type OpsSupportStatus = "open" | "answered";

export const SUPPORT_PER_PAGE = 20;

export function supportMessagesPath(stationId: number, status: OpsSupportStatus | null, page: number): string {
  const query = new URLSearchParams({ page: String(page), per_page: String(SUPPORT_PER_PAGE) });
  if (status) query.set("status", status);
  return `/ops/stations/${stationId}/support-messages?${query.toString()}`;
}

/** A page of the station's messages; nothing is asked without a station. */
export function useSupportMessages(stationId: number | null, status: OpsSupportStatus | null, page: number) {
  return useQuery({
    ...queryOptions({
      queryKey: opsKeys.supportMessages(stationId ?? 0, status, page),
      queryFn: ({ signal }) => api.get<OpsSupportMessages>(supportMessagesPath(stationId ?? 0, status, page), { signal }),
    }),
    enabled: stationId !== null,
  });
}

/** Answers one message; the list and the audit log are read again. */
export function useAnswerSupportMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, answer }: { id: number; answer: string }) =>
      api.post<OpsSupportMessage>(`/ops/support-messages/${id}/answer`, { answer }),
    onSettled: () => invalidateOpsData(queryClient),
  });
}

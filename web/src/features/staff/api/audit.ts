import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { opsKeys } from "@/features/staff/api/ops-keys";
import { api } from "@/lib/api-client";
import type { OpsAuditPage } from "@/types/api";

export function getAudit(page: number, { signal }: { signal?: AbortSignal } = {}): Promise<OpsAuditPage> {
  return api.get<OpsAuditPage>(`/ops/audit?page=${page}`, { signal });
}

export function auditQueryOptions(page: number) {
  return queryOptions({
    queryKey: opsKeys.audit(page),
    queryFn: ({ signal }) => getAudit(page, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useAudit(page: number) {
  return useQuery(auditQueryOptions(page));
}

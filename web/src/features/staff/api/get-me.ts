import { queryOptions, useQuery } from "@tanstack/react-query";
import { opsKeys } from "@/features/staff/api/ops-keys";
import { api } from "@/lib/api-client";
import type { OpsMe } from "@/types/api";

export function getOpsMe({ signal }: { signal?: AbortSignal } = {}): Promise<OpsMe> {
  return api.get<OpsMe>("/ops/me", { signal });
}

/** Who is using the console; it also decides whether the console opens at all (403). */
export function opsMeQueryOptions() {
  return queryOptions({ queryKey: opsKeys.me, queryFn: ({ signal }) => getOpsMe({ signal }) });
}

/** Asks only with a session: a visitor is sent to /login without a request. */
export function useOpsMeQuery({ enabled }: { enabled: boolean }) {
  return useQuery({ ...opsMeQueryOptions(), enabled });
}

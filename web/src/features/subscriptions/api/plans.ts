// The station's plans (GET /subscription-plans, public) and one plan (GET /subscription-plans/{id}).
import { queryOptions, skipToken, useQuery } from "@tanstack/react-query";
import { subscriptionKeys } from "@/features/subscriptions/api/keys";
import type { Plan } from "@/features/subscriptions/api/types";
import { api } from "@/lib/api-client";
import { SESSION_INDEPENDENT } from "@/lib/query-client";

export function getPlans({ signal }: { signal?: AbortSignal } = {}): Promise<Plan[]> {
  return api.get<Plan[]>("/subscription-plans", { signal });
}

export function getPlan(id: number, { signal }: { signal?: AbortSignal } = {}): Promise<Plan> {
  return api.get<Plan>(`/subscription-plans/${id}`, { signal });
}

export function usePlans() {
  return useQuery(
    queryOptions({ queryKey: subscriptionKeys.plans(), queryFn: ({ signal }) => getPlans({ signal }), meta: SESSION_INDEPENDENT }),
  );
}

/** One plan; nothing is asked for an address that names none (null). */
export function usePlan(id: number | null) {
  return useQuery(
    queryOptions({
      queryKey: subscriptionKeys.plan(id ?? 0),
      queryFn: id === null ? skipToken : ({ signal }) => getPlan(id, { signal }),
      meta: SESSION_INDEPENDENT,
    }),
  );
}

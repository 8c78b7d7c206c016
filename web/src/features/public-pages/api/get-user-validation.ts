import { queryOptions } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import type { UserValidation } from "@/types/api";

/** Whether a member card's owner is valid (activated, not blocked); public. */
export function getUserValidation(userId: string, { signal }: { signal?: AbortSignal } = {}): Promise<UserValidation> {
  return api.get<UserValidation>(`/users/${encodeURIComponent(userId)}/validation`, { signal });
}

export function userValidationQueryOptions(userId: string) {
  return queryOptions({
    queryKey: ["users", userId, "validation"],
    queryFn: ({ signal }) => getUserValidation(userId, { signal }),
  });
}

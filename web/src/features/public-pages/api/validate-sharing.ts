import { queryOptions } from "@tanstack/react-query";
import { api } from "@/lib/api-client";

export interface SharingRequest {
  action_id: number;
  user_id: number;
  visitor_id: string;
}

export interface SharedAction {
  action: { id: number; name: string; contents: { text: string; link: string }[] };
}

/** Validates a share link and records this visitor's visit (once per visitor on the server). */
export function validateSharing(request: SharingRequest): Promise<SharedAction> {
  return api.post<SharedAction>("/validate-sharing", request);
}

/**
 * A query rather than a mutation: the page runs it once on arrival, and repeating it is
 * harmless since the server counts a visitor once.
 */
export function validateSharingQueryOptions(request: SharingRequest) {
  return queryOptions({
    queryKey: ["validate-sharing", request],
    queryFn: () => validateSharing(request),
    staleTime: Infinity,
  });
}

import { queryOptions } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import type { SharingRequest, SharingValidated } from "@/types/api";

/** Validates a share link and records this visitor's visit (once per visitor on the server). */
export function validateSharing(request: SharingRequest): Promise<SharingValidated> {
  return api.post<SharingValidated>("/validate-sharing", request);
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

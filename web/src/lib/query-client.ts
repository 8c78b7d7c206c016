// The react-query client: failed mutations always end in the catalogue's error toast, and
// queries retry only failures that may pass on their own (no answer, or a 5xx).
import { MutationCache, QueryClient } from "@tanstack/react-query";
import { ApiError, NO_RESPONSE_STATUS } from "@/lib/api-client";

const MAX_QUERY_RETRIES = 2;

function isTransientFailure(error: Error): boolean {
  if (!(error instanceof ApiError)) return true;
  return error.status === NO_RESPONSE_STATUS || error.status >= 500;
}

/**
 * The meta of a mutation whose failure the screen shows itself, with a text of its own from
 * the catalogue ('Cupom inválido', the failed-payment dialog): no 'Erro' toast as well.
 */
export const OWN_ERROR_TEXT = { ownErrorText: true } as const;

export function createQueryClient(onMutationError: (error: Error) => void): QueryClient {
  return new QueryClient({
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => {
        if (mutation.meta?.ownErrorText !== true) onMutationError(error);
      },
    }),
    defaultOptions: {
      queries: {
        retry: (failureCount, error) => isTransientFailure(error) && failureCount < MAX_QUERY_RETRIES,
      },
    },
  });
}

/**
 * The meta of queries whose answer is the same for every visitor of the host (its station
 * and branding): they outlive a session, so signing out does not reload the whole app.
 */
export const SESSION_INDEPENDENT = { sessionIndependent: true } as const;

/** Forgets everything fetched for the session that ended; in-flight calls are dropped. */
export function removeSessionData(queryClient: QueryClient): void {
  const ofSession = { predicate: (query: { meta?: Record<string, unknown> }) => query.meta?.sessionIndependent !== true };
  void queryClient.cancelQueries(ofSession);
  queryClient.removeQueries(ofSession);
  queryClient.getMutationCache().clear();
}

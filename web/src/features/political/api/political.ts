// The political-union desk (docs/api-services.md "Political"): the station's published
// themes (GET /political) and a theme suggested by the member (POST /political). A refused
// suggestion shows its first message, else 'Erro' (spec 002 section 8), in the dialog.
import { queryOptions, useMutation, useQuery } from "@tanstack/react-query";
import { useSession } from "@/features/session";
import { api, firstMessageOf } from "@/lib/api-client";
import { OWN_ERROR_TEXT } from "@/lib/query-client";
import type { PoliticalSuggestion, PoliticalTheme, ServiceRequestCreated } from "@/types/api";

/** The catalogue's fallback when a refusal carries no message. */
export const SUGGESTION_FAILURE_TEXT = "Erro";

export const politicalKeys = {
  all: ["political"] as const,
  themes: (userId: number) => ["political", "themes", userId] as const,
};

export function getPoliticalThemes({ signal }: { signal?: AbortSignal } = {}) {
  return api.get<PoliticalTheme[]>("/political", { signal });
}

export function suggestTheme(body: PoliticalSuggestion) {
  return api.post<ServiceRequestCreated>("/political", body);
}

/** The first entry of the answer's `messages`, else 'Erro'. */
export function suggestionFailureText(error: unknown): string {
  return firstMessageOf(error) ?? SUGGESTION_FAILURE_TEXT;
}

export function usePoliticalThemes() {
  // The member area renders only behind the member guard, so a session is there.
  const userId = useSession()?.user.id ?? 0;
  return useQuery(
    queryOptions({
      queryKey: politicalKeys.themes(userId),
      queryFn: ({ signal }) => getPoliticalThemes({ signal }),
    }),
  );
}

export function useSuggestTheme() {
  return useMutation({ mutationFn: suggestTheme, meta: OWN_ERROR_TEXT });
}

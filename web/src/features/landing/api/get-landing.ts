// The station's landing (GET /stations/{id}/landing) and one about page
// (GET /station-about-participant/{id}/{station}); both public and cached by the API.
import { queryOptions, skipToken, useQuery } from "@tanstack/react-query";
import { useStation } from "@/features/stations";
import { api } from "@/lib/api-client";
import { SESSION_INDEPENDENT } from "@/lib/query-client";
import type { AboutPage, Landing } from "@/types/api";

export const landingKeys = {
  landing: (stationId: number) => ["landing", stationId] as const,
  about: (stationId: number, id: number) => ["landing", stationId, "about", id] as const,
};

export function useLanding() {
  const stationId = useStation().id;
  return useQuery(
    queryOptions({
      queryKey: landingKeys.landing(stationId),
      queryFn: ({ signal }) => api.get<Landing>(`/stations/${stationId}/landing`, { signal }),
      meta: SESSION_INDEPENDENT,
    }),
  );
}

/** One about page of the station; nothing is asked for an address that names none (null). */
export function useAboutPage(id: number | null) {
  const stationId = useStation().id;
  return useQuery(
    queryOptions({
      queryKey: landingKeys.about(stationId, id ?? 0),
      queryFn:
        id === null
          ? skipToken
          : ({ signal }) => api.get<AboutPage>(`/station-about-participant/${id}/${stationId}`, { signal }),
      meta: SESSION_INDEPENDENT,
    }),
  );
}

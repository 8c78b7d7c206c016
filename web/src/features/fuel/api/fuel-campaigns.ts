// The fuel campaign (spec 002 section 7, "Fuel campaign"; the resource is /fuel-campaigns,
// docs/decisions.md "The fuel campaign"): the station's open campaigns, the member's
// vouchers (GET /fuel-campaigns/{userId}, the caller's own id) and taking one (POST with
// fuel_id and user_id). The API answers 404 where the station offers no fuel campaign.
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useSession } from "@/features/session";
import { useStation } from "@/features/stations";
import { api, ApiError, errorTextFromBody, INTERNAL_SERVER_ERROR_TEXT } from "@/lib/api-client";
import { OWN_ERROR_TEXT } from "@/lib/query-client";
import type { FuelCampaign, FuelVoucher } from "@/types/api";

/** Spec 002's fallback for a voucher that could not be made. */
export const FUEL_FAILURE_TEXT = "Erro interno do sistema";

export const fuelKeys = {
  all: ["fuel"] as const,
  campaigns: (userId: number) => ["fuel", "campaigns", userId] as const,
  vouchers: (userId: number) => ["fuel", "vouchers", userId] as const,
};

export function getFuelCampaigns({ signal }: { signal?: AbortSignal } = {}) {
  return api.get<FuelCampaign[]>("/fuel-campaigns", { signal });
}

export function getFuelVouchers(userId: number, { signal }: { signal?: AbortSignal } = {}) {
  return api.get<FuelVoucher[]>(`/fuel-campaigns/${userId}`, { signal });
}

export function takeFuelVoucher(fuelId: number, userId: number) {
  return api.post<FuelVoucher>("/fuel-campaigns", { fuel_id: fuelId, user_id: userId });
}

/** The answer's own text when it has one, else the spec's fallback. */
export function fuelFailureText(error: unknown): string {
  if (error instanceof ApiError) {
    const text = errorTextFromBody(error.body);
    if (text !== INTERNAL_SERVER_ERROR_TEXT) return text;
  }
  return FUEL_FAILURE_TEXT;
}

function useMemberId(): number {
  // The member area renders only behind the member guard, so a session is there.
  return useSession()?.user.id ?? 0;
}

export function useFuelCampaigns() {
  const shown = useStation().fuel_campaign_access;
  const userId = useMemberId();
  return useQuery({
    ...queryOptions({
      queryKey: fuelKeys.campaigns(userId),
      queryFn: ({ signal }) => getFuelCampaigns({ signal }),
    }),
    enabled: shown,
  });
}

export function useFuelVouchers() {
  const shown = useStation().fuel_campaign_access;
  const userId = useMemberId();
  return useQuery({
    ...queryOptions({
      queryKey: fuelKeys.vouchers(userId),
      queryFn: ({ signal }) => getFuelVouchers(userId, { signal }),
    }),
    enabled: shown,
  });
}

/** Takes a campaign's voucher; both lists are read again after it, whatever the answer (the
 * spec reloads the page): a refusal (sold out, closed, already held) must not leave the
 * campaign pickable. */
export function useTakeFuelVoucher() {
  const userId = useMemberId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (fuelId: number) => takeFuelVoucher(fuelId, userId),
    // The screen says why in the spec's words (its fallback differs from the catalogue's).
    meta: OWN_ERROR_TEXT,
    onSettled: () => queryClient.invalidateQueries({ queryKey: fuelKeys.all }),
  });
}

// The member's saved cards (GET /user-credit-cards/{id}) and a new one (POST /user-credit-cards).
import { queryOptions, skipToken, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useSession } from "@/features/session";
import { subscriptionKeys } from "@/features/subscriptions/api/keys";
import type { NewSavedCard, SavedSubscriptionCard } from "@/features/subscriptions/api/types";
import { api } from "@/lib/api-client";
import { OWN_ERROR_TEXT } from "@/lib/query-client";

export function getSavedCards(userId: number, { signal }: { signal?: AbortSignal } = {}) {
  return api.get<SavedSubscriptionCard[]>(`/user-credit-cards/${userId}`, { signal });
}

/** Where the member's cards are cached: the list, the checkout and the payment methods share it. */
export const savedCardsKey = (userId: number) => subscriptionKeys.cards(userId);

export function useSavedCards(enabled = true) {
  const userId = useSession()?.user.id;
  return useQuery(
    queryOptions({
      queryKey: savedCardsKey(userId ?? 0),
      queryFn: userId === undefined || !enabled ? skipToken : ({ signal }) => getSavedCards(userId, { signal }),
    }),
  );
}

export function saveCard(card: NewSavedCard): Promise<SavedSubscriptionCard> {
  return api.post<SavedSubscriptionCard>("/user-credit-cards", card);
}

export function useSaveCard() {
  const queryClient = useQueryClient();
  const userId = useSession()?.user.id ?? 0;
  return useMutation({
    mutationFn: async (card: () => Promise<NewSavedCard>) => saveCard(await card()),
    meta: OWN_ERROR_TEXT,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: subscriptionKeys.cards(userId) }),
  });
}

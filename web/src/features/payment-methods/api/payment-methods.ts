// The member's payment methods (docs/api-commerce.md, "Saved cards"): the saved cards list
// (`GET /user-credit-cards/{userId}`, cached where the subscription forms read it), removing
// a card (`DELETE /user-credit-cards/{id}`) and choosing the default
// (`PUT /user-credit-cards/{id}/default`); both answer the cards as they now are.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useSession } from "@/features/session";
import { savedCardsKey, useSavedCards } from "@/features/subscriptions";
import { api } from "@/lib/api-client";
import type { SavedCard } from "@/types/api";

export { useSavedCards as usePaymentMethods };

export function removeCard(cardId: number): Promise<SavedCard[]> {
  return api.delete<SavedCard[]>(`/user-credit-cards/${cardId}`);
}

export function makeDefaultCard(cardId: number): Promise<SavedCard[]> {
  return api.put<SavedCard[]>(`/user-credit-cards/${cardId}/default`);
}

/** A change to the cards whose answer is the new list: it replaces the cached one. */
function useCardsChange(change: (cardId: number) => Promise<SavedCard[]>) {
  const queryClient = useQueryClient();
  const userId = useSession()?.user.id ?? 0;
  return useMutation({
    mutationFn: change,
    onSuccess: (cards) => queryClient.setQueryData(savedCardsKey(userId), cards),
  });
}

export function useRemoveCard() {
  return useCardsChange(removeCard);
}

export function useMakeDefaultCard() {
  return useCardsChange(makeDefaultCard);
}

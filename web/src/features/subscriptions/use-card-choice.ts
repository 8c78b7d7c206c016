// Turns the card form into what a subscription call takes: a saved card's id, or the new
// card's token from the browser's tokeniser with its billing data.
import { useCardTokenizer } from "@/features/commerce";
import type { CardChoice, NewSavedCard } from "@/features/subscriptions/api/types";
import {
  NEW_CARD,
  cardChoiceToApi,
  cardToTokenize,
  savedCardToApi,
  type CardFormValues,
} from "@/features/subscriptions/subscription-form";

export function useCardChoice(): (values: CardFormValues) => Promise<CardChoice> {
  const tokenize = useCardTokenizer();
  return async (values) => {
    if (values.selected_card !== NEW_CARD) return cardChoiceToApi(values, null);
    return cardChoiceToApi(values, await tokenize(cardToTokenize(values)));
  };
}

/** A new card to keep, by its token. */
export function useNewCard(): (values: CardFormValues) => Promise<NewSavedCard> {
  const tokenize = useCardTokenizer();
  return async (values) => savedCardToApi(values, await tokenize(cardToTokenize(values)));
}

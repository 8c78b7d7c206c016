// The browser's card tokeniser (docs/api-commerce.md, "Paying by card and PIX"): a new card
// goes from the browser to the payment provider, which answers a token; only the token (and
// the billing address, which providers do not tokenise) goes with the order. With Pagar.me
// that is its `POST /tokens?appId={public key}`; on the sandbox, our own stand-in.
import { useQuery } from "@tanstack/react-query";
import { cardForProvider, cardToTokenize, type PaymentFormValues } from "@/features/commerce/payment-form";
import { stationConfigQueryOptions } from "@/features/stations";
import { api } from "@/lib/api-client";
import type { CardToken, StationConfig } from "@/types/api";

/** No tokeniser here, or the provider's did not answer. */
export const NO_TOKENIZER_TEXT = "Pagamento com cartão novo indisponível no momento. Escolha um cartão salvo ou PIX.";
/** The provider refused the card's data. */
export const CARD_DATA_REFUSED_TEXT = "Dados do cartão inválidos.";

/** A tokeniser's failure, told to the member as its message. */
export class CardTokenizerError extends Error {}

export type ProviderTokenizer = NonNullable<StationConfig["card_tokenizer"]>;

/** Pagar.me's tokeniser: the public key in the query and no other header (its documented rule). */
export async function tokenizeAtProvider(tokenizer: ProviderTokenizer, values: PaymentFormValues): Promise<string> {
  let answer: Response;
  try {
    answer = await fetch(`${tokenizer.url}?appId=${encodeURIComponent(tokenizer.app_id)}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(cardForProvider(values)),
    });
  } catch {
    throw new CardTokenizerError(NO_TOKENIZER_TEXT);
  }
  // 400 and 422 judge the card; anything else (our key refused, the provider down) is ours.
  if (answer.status === 400 || answer.status === 422) throw new CardTokenizerError(CARD_DATA_REFUSED_TEXT);
  const body: unknown = answer.ok ? await answer.json().catch(() => null) : null;
  const id = typeof body === "object" && body !== null ? (body as { id?: unknown }).id : undefined;
  if (typeof id !== "string" || id === "") throw new CardTokenizerError(NO_TOKENIZER_TEXT);
  return id;
}

/** The sandbox's stand-in for the provider's tokeniser. */
export async function tokenizeAtSandbox(values: PaymentFormValues): Promise<string> {
  const answer = await api.post<CardToken>("/sandbox/card-tokens", cardToTokenize(values));
  return answer.card_token;
}

/** Turns a new card into a token, or refuses: this deployment's tokeniser, from GET /config. */
export function useCardTokenizer(): (values: PaymentFormValues) => Promise<string> {
  const config = useQuery(stationConfigQueryOptions()).data;
  const provider = config?.card_tokenizer;
  if (provider) return (values) => tokenizeAtProvider(provider, values);
  if (config?.payments_sandbox === true) return tokenizeAtSandbox;
  return () => Promise.reject(new CardTokenizerError(NO_TOKENIZER_TEXT));
}

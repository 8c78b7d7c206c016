// The card fields every card form shares (the shop's checkout, the subscriptions' forms and
// the wallet's top-up): the saved cards to choose from and a new card's own fields, whose
// number goes to the browser's tokeniser, never to our API.
import { TextField, bindText } from "@/components/form/fields";
import type { Form } from "@/components/form/use-form";
import { NEW_CARD, maskCardNumber, maskCpf, maskCvc, maskExpiry } from "@/features/commerce/payment-form";

export const SAVE_CARD_LABEL = "Salvar este cartão para as próximas compras";

interface SavedCardChoice {
  id: number;
  brand: string;
  last_digits: string;
}

/** The options of a 'Cartão' select: each saved card, then 'Novo cartão' (NEW_CARD). */
export function SavedCardOptions({ cards }: { cards: readonly SavedCardChoice[] }) {
  return (
    <>
      {cards.map((card) => (
        <option key={card.id} value={String(card.id)}>
          {card.brand} final {card.last_digits}
        </option>
      ))}
      <option value={NEW_CARD}>Novo cartão</option>
    </>
  );
}

export interface NewCardValues {
  number: string;
  name: string;
  expiry: string;
  cvv: string;
  cpf: string;
}

/** A new card: number, printed name, expiry, CVV and the holder's CPF, each with its mask. */
export function NewCardFields<V extends NewCardValues>({ form: wholeForm }: { form: Form<V> }) {
  // Sound: these fields read and write only the string fields V has from NewCardValues
  // (Form<V> is invariant in V, so the narrowing needs saying).
  const form = wholeForm as unknown as Form<NewCardValues>;
  return (
    <>
      <TextField label="Número do cartão" inputMode="numeric" autoComplete="cc-number" {...bindText(form, "number", maskCardNumber)} />
      <TextField label="Nome impresso no cartão" autoComplete="cc-name" {...bindText(form, "name")} />
      <TextField
        label="Validade (MM/AA)"
        inputMode="numeric"
        autoComplete="cc-exp"
        placeholder="MM/AA"
        {...bindText(form, "expiry", maskExpiry)}
      />
      <TextField label="CVV" inputMode="numeric" autoComplete="cc-csc" {...bindText(form, "cvv", maskCvc)} />
      <TextField label="CPF do titular" inputMode="numeric" {...bindText(form, "cpf", maskCpf)} />
    </>
  );
}

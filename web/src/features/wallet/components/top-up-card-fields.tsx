// The card of a top-up: one of the member's saved cards, or a new one whose number goes to
// the browser's tokeniser (the checkout's), never to our API; a new card may be kept, with
// the billing address the saved card needs.
import { CheckboxField, SelectField, TextField, bindText } from "@/components/form/fields";
import { StateOptions } from "@/components/form/state-options";
import type { Form } from "@/components/form/use-form";
import { isCompleteCep, useCepLookup } from "@/features/address";
import { paymentForm } from "@/features/commerce";
import { NEW_CARD, type TopUpFormValues } from "@/features/wallet/top-up-form";
import { MESSAGES } from "@/lib/validators";
import type { SavedCard } from "@/types/api";

export const SAVE_CARD_LABEL = "Salvar este cartão para as próximas compras";

/** The billing address a saved card keeps; the CEP fills the rest (the shop's lookup). */
function BillingAddressFields({ form }: { form: Form<TopUpFormValues> }) {
  const lookup = useCepLookup((address, cep) => {
    if (cep !== form.values.cep) return;
    if (address) form.setValues({ city: address.city, state: address.state, street: address.street });
    else form.setValues({ city: MESSAGES.cep, street: MESSAGES.cep });
  });
  const cepField = bindText(form, "cep", paymentForm.maskCep);
  return (
    <>
      <TextField
        label="CEP"
        inputMode="numeric"
        autoComplete="postal-code"
        {...cepField}
        onChange={(value) => {
          cepField.onChange(value);
          const masked = paymentForm.maskCep(value);
          if (isCompleteCep(masked)) lookup.mutate(masked);
        }}
      />
      <TextField label="Rua" autoComplete="address-line1" {...bindText(form, "street")} />
      <TextField label="Número" {...bindText(form, "street_number")} />
      <SelectField label="Estado" {...bindText(form, "state")}>
        <StateOptions />
      </SelectField>
      <TextField label="Cidade" {...bindText(form, "city")} />
    </>
  );
}

interface TopUpCardFieldsProps {
  form: Form<TopUpFormValues>;
  savedCards: readonly SavedCard[];
  /** The saved cards are being read: the choice waits for them. */
  loading?: boolean;
}

export function TopUpCardFields({ form, savedCards, loading = false }: TopUpCardFieldsProps) {
  const isNew = form.values.selected_card === NEW_CARD;
  if (loading) {
    return (
      <fieldset className="top-up__card" aria-busy="true">
        <legend>Cartão de crédito</legend>
        <p role="status">Carregando seus cartões…</p>
      </fieldset>
    );
  }
  return (
    <fieldset className="top-up__card">
      <legend>Cartão de crédito</legend>
      <SelectField label="Cartão" {...bindText(form, "selected_card")}>
        <option value="">Selecione</option>
        {savedCards.map((card) => (
          <option key={card.id} value={String(card.id)}>
            {card.brand} final {card.last_digits}
          </option>
        ))}
        <option value={NEW_CARD}>Novo cartão</option>
      </SelectField>
      {isNew && (
        <>
          <TextField
            label="Número do cartão"
            inputMode="numeric"
            autoComplete="cc-number"
            {...bindText(form, "number", paymentForm.maskCardNumber)}
          />
          <TextField label="Nome impresso no cartão" autoComplete="cc-name" {...bindText(form, "name")} />
          <TextField
            label="Validade (MM/AA)"
            inputMode="numeric"
            autoComplete="cc-exp"
            placeholder="MM/AA"
            {...bindText(form, "expiry", paymentForm.maskExpiry)}
          />
          <TextField label="CVV" inputMode="numeric" autoComplete="cc-csc" {...bindText(form, "cvv", paymentForm.maskCvc)} />
          <TextField label="CPF do titular" inputMode="numeric" {...bindText(form, "cpf", paymentForm.maskCpf)} />
          <CheckboxField label={SAVE_CARD_LABEL} checked={form.values.save} onChange={(save) => form.setValue("save", save)} />
          {form.values.save && <BillingAddressFields form={form} />}
        </>
      )}
    </fieldset>
  );
}

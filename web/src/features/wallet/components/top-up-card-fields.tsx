// The card of a top-up: one of the member's saved cards, or a new one whose number goes to
// the browser's tokeniser (the checkout's), never to our API; a new card may be kept, with
// the billing address the saved card needs.
import { CheckboxField, SelectField, TextField, bindText } from "@/components/form/fields";
import { StateOptions } from "@/components/form/state-options";
import type { Form } from "@/components/form/use-form";
import { CepField } from "@/features/address";
import { NewCardFields, SAVE_CARD_LABEL, SavedCardOptions } from "@/features/commerce";
import { NEW_CARD, type TopUpFormValues } from "@/features/wallet/top-up-form";
import type { SavedCard } from "@/types/api";

/** The billing address a saved card keeps; the CEP fills the rest (the shop's lookup). */
function BillingAddressFields({ form }: { form: Form<TopUpFormValues> }) {
  return (
    <>
      <CepField form={form} />
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
        <SavedCardOptions cards={savedCards} />
      </SelectField>
      {isNew && (
        <>
          <NewCardFields form={form} />
          <CheckboxField label={SAVE_CARD_LABEL} checked={form.values.save} onChange={(save) => form.setValue("save", save)} />
          {form.values.save && <BillingAddressFields form={form} />}
        </>
      )}
    </fieldset>
  );
}

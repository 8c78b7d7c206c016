// The card and billing fields of the subscription forms (spec 002 "Purchase form"): a saved
// card or a new one, whose number is tokenised in the browser; the CEP fills the street,
// neighborhood, city and state.
import { CheckboxField, SelectField, TextField, bindText } from "@/components/form/fields";
import { StateOptions } from "@/components/form/state-options";
import type { Form } from "@/components/form/use-form";
import { CepField } from "@/features/address";
import { NewCardFields, SAVE_CARD_LABEL, SavedCardOptions, paymentForm } from "@/features/commerce";
import type { SavedSubscriptionCard, SubscriptionCard } from "@/features/subscriptions/api/types";
import { KEEP_CARD, NEW_CARD, type CardFormValues } from "@/features/subscriptions/subscription-form";

interface CardFieldsProps {
  form: Form<CardFormValues>;
  /** Saved cards to choose from; none shows the new card's fields alone. */
  savedCards?: readonly SavedSubscriptionCard[];
  /** Offers to keep the new card for later. */
  offerSave?: boolean;
  legend?: string;
  /** The subscription's own card, offered first when changing plan. */
  currentCard?: SubscriptionCard | null;
}

export function CardFields({ form, savedCards = [], offerSave = false, legend = "Dados do cartão", currentCard = null }: CardFieldsProps) {
  const isNew = form.values.selected_card === NEW_CARD;
  return (
    <fieldset className="subscription-card-fields">
      <legend>{legend}</legend>
      {(savedCards.length > 0 || currentCard) && (
        <SelectField label="Cartão" {...bindText(form, "selected_card")}>
          <option value="">Selecione</option>
          {currentCard && (
            <option value={KEEP_CARD}>
              Cartão atual: {currentCard.brand} final {currentCard.last_digits}
            </option>
          )}
          <SavedCardOptions cards={savedCards} />
        </SelectField>
      )}
      {isNew && (
        <>
          <NewCardFields form={form} />
          <TextField
            label="Data de nascimento"
            inputMode="numeric"
            placeholder="dd/mm/aaaa"
            {...bindText(form, "birthday", paymentForm.maskBirthDate)}
          />
          <TextField label="Telefone" inputMode="tel" autoComplete="tel" {...bindText(form, "phone", paymentForm.maskPaymentPhone)} />
          <CepField form={form} fillsNeighborhood />
          <TextField label="Rua" autoComplete="address-line1" {...bindText(form, "street")} />
          <TextField label="Número" {...bindText(form, "street_number")} />
          <TextField label="Bairro" {...bindText(form, "neighborhood")} />
          <SelectField label="Estado" {...bindText(form, "state")}>
            <StateOptions />
          </SelectField>
          <TextField label="Cidade" {...bindText(form, "city")} />
          {offerSave && (
            <CheckboxField label={SAVE_CARD_LABEL} checked={form.values.save} onChange={(save) => form.setValue("save", save)} />
          )}
        </>
      )}
    </fieldset>
  );
}

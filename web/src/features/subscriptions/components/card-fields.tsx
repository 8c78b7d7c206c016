// The card and billing fields of the subscription forms (spec 002 "Purchase form"): a saved
// card or a new one, whose number is tokenised in the browser; the CEP fills the street,
// neighborhood, city and state.
import { CheckboxField, SelectField, TextField, bindText } from "@/components/form/fields";
import { StateOptions } from "@/components/form/state-options";
import type { Form } from "@/components/form/use-form";
import { isCompleteCep, useCepLookup } from "@/features/address";
import { paymentForm } from "@/features/commerce";
import type { SavedSubscriptionCard, SubscriptionCard } from "@/features/subscriptions/api/types";
import { KEEP_CARD, NEW_CARD, type CardFormValues } from "@/features/subscriptions/subscription-form";
import { MESSAGES } from "@/lib/validators";

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
  const lookup = useCepLookup((address, cep) => {
    if (cep !== form.values.cep) return;
    if (address) {
      form.setValues({ city: address.city, state: address.state, street: address.street, neighborhood: address.neighborhood });
    } else {
      form.setValues({ city: MESSAGES.cep, street: MESSAGES.cep });
    }
  });
  const cepField = bindText(form, "cep", paymentForm.maskCep);
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
          {savedCards.map((card) => (
            <option key={card.id} value={String(card.id)}>
              {card.brand} final {card.last_digits}
            </option>
          ))}
          <option value={NEW_CARD}>Novo cartão</option>
        </SelectField>
      )}
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
          <TextField
            label="Data de nascimento"
            inputMode="numeric"
            placeholder="dd/mm/aaaa"
            {...bindText(form, "birthday", paymentForm.maskBirthDate)}
          />
          <TextField label="Telefone" inputMode="tel" autoComplete="tel" {...bindText(form, "phone", paymentForm.maskPaymentPhone)} />
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
          <TextField label="Bairro" {...bindText(form, "neighborhood")} />
          <SelectField label="Estado" {...bindText(form, "state")}>
            <StateOptions />
          </SelectField>
          <TextField label="Cidade" {...bindText(form, "city")} />
          {offerSave && (
            <CheckboxField
              label="Salvar este cartão para as próximas compras"
              checked={form.values.save}
              onChange={(save) => form.setValue("save", save)}
            />
          )}
        </>
      )}
    </fieldset>
  );
}

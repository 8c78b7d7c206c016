// Step 2 of the cart (spec 002 sections 2, 4 and 5): what the wallet pays and, when an amount
// remains (or the activity is payment-only), the choice of card or PIX; a card offers the
// member's saved cards ('0' a new card, which shows the card form) and, when the activity
// allows them, the installments the server computed; PIX hides all of it.
import type { ReactNode } from "react";
import { CheckboxField, SelectField, TextField, bindText } from "@/components/form/fields";
import { StateOptions } from "@/components/form/state-options";
import type { Form } from "@/components/form/use-form";
import { CepField } from "@/features/address";
import { NewCardFields, SAVE_CARD_LABEL, SavedCardOptions } from "@/features/commerce/components/card-entry-fields";
import { formatBrl } from "@/features/commerce/money";
import {
  NEW_CARD,
  maskBirthDate,
  maskPaymentPhone,
  type PaymentFormValues,
  type PaymentType,
} from "@/features/commerce/payment-form";
import type { InstallmentOption, OrderTotals, SavedCard } from "@/types/api";

const METHODS: { value: PaymentType; label: string }[] = [
  { value: "credit_card", label: "Cartão de crédito" },
  { value: "pix", label: "PIX" },
];

function CardFields({ form }: { form: Form<PaymentFormValues> }) {
  return (
    <fieldset className="cart-payment__card">
      <legend>Dados do cartão</legend>
      <NewCardFields form={form} />
      <TextField label="Data de nascimento" inputMode="numeric" {...bindText(form, "birthday", maskBirthDate)} />
      <TextField label="E-mail" type="email" autoComplete="email" {...bindText(form, "email")} />
      <TextField label="Telefone" inputMode="tel" autoComplete="tel" {...bindText(form, "phone", maskPaymentPhone)} />
      <CepField form={form} />
      <TextField label="Cidade" {...bindText(form, "city")} />
      <SelectField label="Estado" {...bindText(form, "state")}>
        <StateOptions />
      </SelectField>
      <TextField label="Rua" {...bindText(form, "street")} />
      <TextField label="Número" {...bindText(form, "street_number")} />
    </fieldset>
  );
}

interface PaymentStepProps {
  totals: OrderTotals;
  walletBalanceCents: number;
  paymentOnly: boolean;
  asksMethod: boolean;
  form: Form<PaymentFormValues>;
  /** The member's saved cards (`GET /user-credit-cards/{id}`). */
  savedCards?: readonly SavedCard[];
  /** The options of `POST /calculate-installments`; empty when the activity allows none. */
  installments?: readonly InstallmentOption[];
  /** The reservation's countdown, under the fields. */
  countdown?: ReactNode;
  onBack: () => void;
}

export function PaymentStep({
  totals,
  walletBalanceCents,
  paymentOnly,
  asksMethod,
  form,
  savedCards = [],
  installments = [],
  countdown,
  onBack,
}: PaymentStepProps) {
  // A saved card is the default when one exists (spec 002 section 4).
  const defaultCard = savedCards[0] ? String(savedCards[0].id) : NEW_CARD;
  const chooseMethod = (type: PaymentType) =>
    form.setValues(type === "credit_card" ? { type, selected_card: defaultCard } : { type, selected_card: "", installments: "" });
  const isCard = asksMethod && form.values.type === "credit_card";
  const chosenCard = savedCards.find((card) => String(card.id) === form.values.selected_card);
  return (
    <>
      <div className="cart-payment">
        <dl className="cart-payment__summary">
          <dt>Total do pedido</dt>
          <dd>{formatBrl(totals.total_final_value)}</dd>
          {!paymentOnly && (
            <>
              <dt>Seu saldo</dt>
              <dd>{formatBrl(walletBalanceCents)}</dd>
              <dt>Pago com saldo</dt>
              <dd>{formatBrl(totals.wallet_value)}</dd>
            </>
          )}
          <dt>Valor a pagar</dt>
          <dd>{formatBrl(totals.credit_card_value)}</dd>
        </dl>
        {asksMethod && (
          <fieldset className="cart-payment__methods">
            <legend>Como deseja pagar o valor restante?</legend>
            {METHODS.map((method) => (
              <label key={method.value} className="cart-payment__method">
                <input
                  type="radio"
                  name="payment-type"
                  value={method.value}
                  checked={form.values.type === method.value}
                  onChange={() => chooseMethod(method.value)}
                />
                {method.label}
              </label>
            ))}
            {form.errors.type && <span className="field__error">{form.errors.type}</span>}
          </fieldset>
        )}
        {isCard && savedCards.length > 0 && (
          <SelectField label="Cartão" {...bindText(form, "selected_card")}>
            <SavedCardOptions cards={savedCards} />
          </SelectField>
        )}
        {isCard && chosenCard && (
          // Spec 002 section 4: a saved card, when selected, shows a masked preview.
          <p className="cart-payment__card-preview">
            {chosenCard.brand} **** **** **** {chosenCard.last_digits}
          </p>
        )}
        {isCard && installments.length > 1 && (
          <SelectField label="Parcelas" {...bindText(form, "installments")}>
            <option value="">Selecione</option>
            {installments.map((option) => (
              <option key={option.installment} value={String(option.installment)}>
                {option.installment}x de {formatBrl(option.installment_amount)}
              </option>
            ))}
          </SelectField>
        )}
        {isCard && form.values.selected_card === NEW_CARD && (
          <>
            <CardFields form={form} />
            {/* Both providers keep it: the server saves the card first, then charges it. */}
            <CheckboxField
              label={SAVE_CARD_LABEL}
              checked={form.values.save}
              onChange={(save) => form.setValue("save", save)}
            />
          </>
        )}
      </div>
      {countdown}
      <div className="cart-form__actions">
        <button type="button" className="button button--secondary" onClick={onBack}>
          Voltar
        </button>
        <button type="submit" className="button button--primary">
          Revisar pedido
        </button>
      </div>
    </>
  );
}

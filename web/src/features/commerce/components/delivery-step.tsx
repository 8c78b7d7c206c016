// Step 1 of the cart, 'Informações de entrega e retirada' (spec 002 sections 2 and 5): per
// activity that ships, the delivery or pickup place; for home delivery the CEP (looked up
// when its eight digits are in), the address, the number and an optional complement.
import { useState, type ReactNode } from "react";
import { SelectField, TextField } from "@/components/form/fields";
import { isCompleteCep, useCepLookup } from "@/features/address";
import {
  EMPTY_DELIVERY,
  cartTotals,
  chosenLocation,
  type CartGroup,
  type DeliveryChoice,
} from "@/features/commerce/checkout";
import { TotalsBox } from "@/features/commerce/components/totals-box";
import { formatBrl } from "@/features/commerce/money";
import { maskCep } from "@/lib/masks";
import { MESSAGES, required } from "@/lib/validators";
import { cep as cepCheck } from "@/features/commerce/payment-form";
import type { OrderTotals } from "@/types/api";

export type DeliveryErrors = Partial<Record<"deliveryLocation" | "zipcode" | "address", string>>;

/** A delivery region is required; for home delivery, address and CEP too (spec 002 section 5). */
export function deliveryErrors(group: CartGroup, choice: DeliveryChoice | undefined): DeliveryErrors {
  const location = chosenLocation(group.action, choice);
  if (!location) return { deliveryLocation: MESSAGES.required };
  if (!location.delivery || !choice) return {};
  const errors: DeliveryErrors = {};
  const zipcode = required(choice.zipcode) ?? cepCheck(choice.zipcode);
  if (zipcode) errors.zipcode = zipcode;
  const address = required(choice.address.trim());
  if (address) errors.address = address;
  return errors;
}

function locationLabel(name: string, price: number): string {
  return price > 0 ? `${name} (${formatBrl(price)})` : name;
}

interface DeliveryFieldsProps {
  group: CartGroup;
  choice: DeliveryChoice;
  onChange: (choice: DeliveryChoice) => void;
  /** Shown once the member tried to go on. */
  errors: DeliveryErrors;
}

export function DeliveryFields({ group, choice, onChange, errors }: DeliveryFieldsProps) {
  const { action } = group;
  const location = chosenLocation(action, choice);
  const [lookupFailed, setLookupFailed] = useState(false);
  const lookup = useCepLookup((address, cep) => {
    if (cep !== choice.zipcode) return;
    setLookupFailed(address === null);
    if (address) {
      const street = [address.street, address.neighborhood].filter(Boolean).join(", ");
      onChange({ ...choice, address: `${street}${street ? ", " : ""}${address.city} - ${address.state}` });
    }
  });

  const setZipcode = (value: string) => {
    const zipcode = maskCep(value);
    onChange({ ...choice, zipcode });
    setLookupFailed(false);
    if (isCompleteCep(zipcode)) lookup.mutate(zipcode);
  };

  return (
    <fieldset className="cart-delivery">
      <legend className="cart-delivery__title">{action.name}</legend>
      <SelectField
        label="Local de entrega ou retirada"
        value={choice.deliveryLocation}
        onChange={(deliveryLocation) => onChange({ ...choice, deliveryLocation })}
        error={errors.deliveryLocation}
      >
        <option value="">Selecione</option>
        {action.delivery_locations.map((place) => (
          <option key={place.id} value={String(place.id)}>
            {locationLabel(place.name, place.price)}
          </option>
        ))}
      </SelectField>
      {location && (location.helper_label_field_1 || location.helper_label_field_2) && (
        <p className="cart-delivery__help">
          {[location.helper_label_field_1, location.helper_label_field_2].filter(Boolean).join(" ")}
        </p>
      )}
      {location && !location.delivery && (
        <p className="cart-delivery__pickup">
          Retirada em: {[location.street, location.street_number].filter(Boolean).join(", ")}
          {location.zipcode ? ` - CEP ${maskCep(location.zipcode)}` : ""}
        </p>
      )}
      {location?.delivery && (
        <>
          <TextField
            label="CEP"
            inputMode="numeric"
            autoComplete="postal-code"
            value={choice.zipcode}
            onChange={setZipcode}
            error={errors.zipcode ?? (lookupFailed ? MESSAGES.cep : undefined)}
          />
          <TextField
            label="Endereço"
            autoComplete="street-address"
            value={choice.address}
            onChange={(address) => onChange({ ...choice, address })}
            error={errors.address}
          />
          <TextField label="Número" value={choice.number} onChange={(number) => onChange({ ...choice, number })} />
          <TextField
            label="Complemento (opcional)"
            value={choice.reference}
            onChange={(reference) => onChange({ ...choice, reference })}
          />
        </>
      )}
    </fieldset>
  );
}

/** Whether every activity that ships has a complete delivery choice. */
export function deliveryComplete(shipping: readonly CartGroup[], choices: Readonly<Record<number, DeliveryChoice>>): boolean {
  return shipping.every((group) => Object.keys(deliveryErrors(group, choices[group.action.id])).length === 0);
}

interface DeliveryStepProps {
  /** The activities that ship (digital ones have nothing to choose). */
  shipping: readonly CartGroup[];
  choices: Readonly<Record<number, DeliveryChoice>>;
  onChoose: (actionId: number, choice: DeliveryChoice) => void;
  /** Show the errors: the member tried to go on. */
  tried: boolean;
  totals: OrderTotals | null;
  countdown: ReactNode;
  onBack: () => void;
}

/** The step's fields per activity, the totals with the countdown, 'Voltar' and 'Ir para pagamento'. */
export function DeliveryStep({ shipping, choices, onChoose, tried, totals, countdown, onBack }: DeliveryStepProps) {
  return (
    <>
      {shipping.map((group) => (
        <DeliveryFields
          key={group.action.id}
          group={group}
          choice={choices[group.action.id] ?? EMPTY_DELIVERY}
          onChange={(choice) => onChoose(group.action.id, choice)}
          errors={tried ? deliveryErrors(group, choices[group.action.id]) : {}}
        />
      ))}
      {totals && <TotalsBox totals={cartTotals(totals)}>{countdown}</TotalsBox>}
      <div className="cart-form__actions">
        <button type="button" className="button button--secondary" onClick={onBack}>
          Voltar
        </button>
        <button type="submit" className="button button--primary">
          Ir para pagamento
        </button>
      </div>
    </>
  );
}

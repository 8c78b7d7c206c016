// The CEP field of a card's billing address (the checkout's, the subscriptions' and the
// top-up's): masked as it is typed, and a complete CEP fills the street, city and state (and
// the neighborhood when the form asks one) from the lookup; a CEP the lookup does not find
// writes 'CEP inválido' in city and street (spec 002).
import { TextField, bindText } from "@/components/form/fields";
import type { Form } from "@/components/form/use-form";
import { isCompleteCep, useCepLookup } from "@/features/address/api/lookup-cep";
import { maskCep } from "@/lib/masks";
import { MESSAGES } from "@/lib/validators";

export interface CepFillValues {
  cep: string;
  street: string;
  city: string;
  state: string;
}

interface CepFieldProps<V extends CepFillValues> {
  form: Form<V>;
  /** The form has a `neighborhood` field the lookup fills too. */
  fillsNeighborhood?: boolean;
}

export function CepField<V extends CepFillValues>({ form: wholeForm, fillsNeighborhood = false }: CepFieldProps<V>) {
  // The form is typed by its caller; these are the address part of it.
  const form = wholeForm as unknown as Form<CepFillValues & { neighborhood?: string }>;
  const lookup = useCepLookup((address, cep) => {
    // An answer for a CEP the member has since changed would overwrite the newer one's.
    if (cep !== form.values.cep) return;
    if (address) {
      form.setValues({
        city: address.city,
        state: address.state,
        street: address.street,
        ...(fillsNeighborhood ? { neighborhood: address.neighborhood } : {}),
      });
    } else {
      form.setValues({ city: MESSAGES.cep, street: MESSAGES.cep });
    }
  });
  const cepField = bindText(form, "cep", maskCep);
  return (
    <TextField
      label="CEP"
      inputMode="numeric"
      autoComplete="postal-code"
      {...cepField}
      onChange={(value) => {
        cepField.onChange(value);
        const masked = maskCep(value);
        if (isCompleteCep(masked)) lookup.mutate(masked);
      }}
    />
  );
}

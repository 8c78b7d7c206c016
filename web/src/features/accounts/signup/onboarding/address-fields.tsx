import { useRef } from "react";
import { isCompleteCep, useCepLookup, type CepAddress } from "@/features/address";
import { bindText, SelectField, TextField } from "@/components/form/fields";
import { StateOptions } from "@/components/form/state-options";
import type { Form } from "@/components/form/use-form";
import { digitsOf, maskCep } from "@/lib/masks";
import { MESSAGES } from "@/lib/validators";

export interface AddressValues {
  zipcode: string;
  address_line_1: string;
  address_number: string;
  address_line_2: string;
  neighborhood: string;
  city: string;
  state: string;
}

/** The CEP fills the rest: eight digits start a lookup; an unknown CEP marks street and city. */
export function AddressFields<V extends AddressValues>({ form }: { form: Form<V> }) {
  // The CEP of the pending or applied lookup: not asked again, so edits to its address stay.
  const lastLookedUp = useRef<string | null>(null);
  const currentCep = useRef("");
  // The form is typed by its caller; these are the address part of it.
  const address = form as unknown as Form<AddressValues>;
  const lookup = useCepLookup((found: CepAddress | null, cep: string) => {
    const stale = cep !== currentCep.current;
    // A failed or dropped lookup may be asked again when its CEP is typed again.
    if ((stale || !found) && lastLookedUp.current === cep) lastLookedUp.current = null;
    // An answer for a CEP the member has since changed would overwrite the newer one's.
    if (stale) return;
    address.setValues(
      found
        ? { address_line_1: found.street, neighborhood: found.neighborhood, city: found.city, state: found.state }
        : { address_line_1: MESSAGES.cep, city: MESSAGES.cep },
    );
  });
  const zipcode = bindText(address, "zipcode", maskCep);

  const changeZipcode = (value: string) => {
    zipcode.onChange(value);
    const digits = digitsOf(value);
    currentCep.current = digits;
    if (isCompleteCep(digits) && digits !== lastLookedUp.current) {
      lastLookedUp.current = digits;
      lookup.mutate(digits);
    }
  };

  return (
    <>
      <TextField
        label="CEP"
        inputMode="numeric"
        autoComplete="postal-code"
        {...zipcode}
        onChange={changeZipcode}
        hint={lookup.isPending ? "Buscando endereço..." : undefined}
      />
      <TextField label="Endereço" autoComplete="address-line1" {...bindText(address, "address_line_1")} />
      <div className="field-row">
        <TextField label="Número" {...bindText(address, "address_number")} />
        <TextField label="Complemento" autoComplete="address-line2" {...bindText(address, "address_line_2")} />
      </div>
      <TextField label="Bairro" autoComplete="address-level3" {...bindText(address, "neighborhood")} />
      <div className="field-row">
        <TextField label="Cidade" autoComplete="address-level2" {...bindText(address, "city")} />
        <SelectField label="Estado" autoComplete="address-level1" {...bindText(address, "state")}>
          <StateOptions />
        </SelectField>
      </div>
    </>
  );
}

// The appointment phone of spec 002 ("Other forms"): masked (99) 9.9999-9999 as typed, a
// landline's ten digits as (99) 9999-9999 (lib/masks' maskServicePhone), and sent as digits.
import { digitsOf } from "@/lib/masks";

export const PHONE_INVALID_TEXT = "Telefone inválido";

/** 10 or 11 digits, as the API accepts; an empty field is `required`'s to report. */
export function appointmentPhone(value: string): string | undefined {
  const digits = digitsOf(value).length;
  return digits === 0 || digits === 10 || digits === 11 ? undefined : PHONE_INVALID_TEXT;
}

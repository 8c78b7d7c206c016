// The money field's mask, apart from lib/masks: only forms past the first page load type
// amounts, so the first load does not carry it (web/scripts/check-bundle-size.js).
import { digitsOf } from "@/lib/masks";

/** R$ 1.234,56 from the digits typed, read as centavos (typing 123 gives R$ 1,23). */
export function maskCurrencyBrl(value: string): string {
  const digits = digitsOf(value).replace(/^0+(?=\d)/, "");
  if (digits === "") return "";
  const cents = digits.padStart(3, "0");
  const reais = cents.slice(0, -2).replace(/\B(?=(\d{3})+(?!\d))/g, ".");
  return `R$ ${reais},${cents.slice(-2)}`;
}

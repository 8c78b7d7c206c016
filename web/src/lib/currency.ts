// Amounts as the spec shows them (spec 001, "Currency display"): the amount times the
// station's currency_multiplier, two decimals, a comma, and the currency name before or
// after. The API gives integer hundredths (`*_cents`); the arithmetic stays in integers
// (BigInt) so 0.01 or 2.5 as a multiplier never adds float drift.
import type { Station } from "@/types/api";

export type CurrencySettings = Pick<Station, "currency_multiplier" | "currency_name" | "currency_name_position">;

/** The exact decimal a number prints as (0.01 -> 1/100, 2.5 -> 25/10, 1e-7 -> 1/10^7). */
function decimalFraction(value: number): { numerator: bigint; denominator: bigint } {
  const [mantissa = "0", exponentText = "0"] = value.toString().toLowerCase().split("e");
  const [whole = "0", fraction = ""] = mantissa.split(".");
  const digits = BigInt(`${whole}${fraction}`);
  const scale = fraction.length - Number(exponentText);
  return scale >= 0
    ? { numerator: digits, denominator: 10n ** BigInt(scale) }
    : { numerator: digits * 10n ** BigInt(-scale), denominator: 1n };
}

/** `cents` times `multiplier`, in hundredths, rounded half away from zero. */
export function applyMultiplier(cents: number, multiplier: number): bigint {
  if (!Number.isFinite(multiplier) || !Number.isSafeInteger(cents)) return 0n;
  const { numerator, denominator } = decimalFraction(multiplier);
  const product = BigInt(cents) * numerator;
  const quotient = product / denominator;
  const remainder = product % denominator;
  const absRemainder = remainder < 0n ? -remainder : remainder;
  if (2n * absRemainder < denominator) return quotient;
  return product < 0n ? quotient - 1n : quotient + 1n;
}

/** Hundredths as "1.234,56" (pt-BR grouping, comma decimal). */
export function formatCents(cents: number | bigint): string {
  const value = BigInt(cents);
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const whole = (abs / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ".");
  const fraction = (abs % 100n).toString().padStart(2, "0");
  return `${negative ? "-" : ""}${whole},${fraction}`;
}

/** An amount of the station's currency, e.g. "50,00 Pontos" or "R$ 0,50". */
export function formatStationAmount(cents: number, currency: CurrencySettings): string {
  const amount = formatCents(applyMultiplier(cents, currency.currency_multiplier));
  const name = currency.currency_name.trim();
  if (name === "") return amount;
  return currency.currency_name_position === "before_currency" ? `${name} ${amount}` : `${amount} ${name}`;
}

/** Centavos as Brazilian reais, "R$ 1.234,56" (the server's `shared::money::format_brl`). */
export function formatBrl(cents: number): string {
  return cents < 0 ? `-R$ ${formatCents(-cents)}` : `R$ ${formatCents(cents)}`;
}

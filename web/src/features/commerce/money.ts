// Amounts of the shop (spec 002 sections 1 and 9). Prices, delivery and totals are reais,
// computed by the server in integer centavos and shown as "R$ 1.234,56"; cashback is what
// the wallet receives, so it is shown the way the wallet shows points: times the station's
// currency_multiplier, with its currency_name before or after (lib/currency, which the
// wallet's balance uses). The wallet's hundredths of a point are centavos (1 point = R$ 1,00).
import { formatCents, formatStationAmount, type CurrencySettings } from "@/lib/currency";

/** Centavos as "R$ 1.234,56" (a negative amount as "-R$ 12,50"). */
export function formatBrl(cents: number): string {
  const text = formatCents(Math.abs(cents));
  return cents < 0 ? `-R$ ${text}` : `R$ ${text}`;
}

/** Hundredths of a point (centavos) in the station's currency, e.g. "12,00 Pontos". */
export function formatPoints(hundredths: number, currency: CurrencySettings): string {
  return formatStationAmount(hundredths, currency);
}

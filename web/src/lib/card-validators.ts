// Payment card checks, in a module of their own so that pages without a card form (the login
// among them) do not carry them in their first load.
import { holds, localToday, MESSAGES, type CalendarDate } from "@/lib/validators";

function passesLuhn(digits: string): boolean {
  const sum = [...digits].reverse().reduce((total, char, i) => {
    const digit = Number(char);
    const doubled = digit * 2;
    return total + (i % 2 === 0 ? digit : doubled > 9 ? doubled - 9 : doubled);
  }, 0);
  return sum % 10 === 0;
}

/** 13 to 19 digits, in groups separated by spaces or hyphens or not, passing the Luhn check. */
export function cardNumber(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  const digits = value.replace(/[ -]/g, "");
  return holds(/^\d{13,19}$/.test(digits) && passesLuhn(digits), MESSAGES.cardNumber);
}

export function cvv(value: string | null | undefined): string | undefined {
  return holds(!value || /^\d{3,4}$/.test(value), MESSAGES.cvv);
}

/** MM/YY (20YY) or MM/YYYY; a card is good until the end of its month, so the current month passes. */
export function cardExpiry(value: string | null | undefined, today: CalendarDate = localToday()): string | undefined {
  if (!value) return undefined;
  const match = /^(\d{2})\/(\d{2}|\d{4})$/.exec(value);
  if (!match) return MESSAGES.cardExpiry;
  const month = Number(match[1]);
  const written = match[2] ?? "";
  const year = written.length === 2 ? 2000 + Number(written) : Number(written);
  const notPast = year > today.year || (year === today.year && month >= today.month);
  return holds(month >= 1 && month <= 12 && notPast, MESSAGES.cardExpiry);
}

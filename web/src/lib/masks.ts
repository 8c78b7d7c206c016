// Input masks of spec 000 section 5: each takes whatever the person typed or pasted and
// returns the masked text for the field. Unmasking is `digitsOf`.

/** Only the digits of a value, in order. */
export function digitsOf(value: string): string {
  return value.replace(/\D/g, "");
}

/** Lays `digits` over `pattern`, where each 9 takes one digit; stops when digits run out. */
export function applyPattern(pattern: string, value: string): string {
  const digits = digitsOf(value);
  let out = "";
  let next = 0;
  for (const slot of pattern) {
    if (next >= digits.length) break;
    if (slot === "9") {
      out += digits[next];
      next += 1;
    } else {
      out += slot;
    }
  }
  return out;
}

/** 999.999.999-99 */
export const maskCpf = (value: string) => applyPattern("999.999.999-99", value);

/** 99.999-999 */
export const maskCep = (value: string) => applyPattern("99.999-999", value);

/** 99/99/9999 */
export const maskDate = (value: string) => applyPattern("99/99/9999", value);

/** 00.000.000/0000-00 */
export const maskCnpj = (value: string) => applyPattern("99.999.999/9999-99", value);

/** Six digits, nothing else. */
export const maskCode = (value: string) => digitsOf(value).slice(0, 6);

/**
 * (99) 9999-9999 for landlines, (99) 99999-9999 once an eleventh digit arrives. A pasted
 * "+55 11 98765-4321" loses its country code; a digit typed past an already masked number
 * (which starts with "(", maybe DDD 55) is dropped instead.
 */
export function maskPhone(value: string): string {
  let digits = digitsOf(value);
  if (digits.length > 11 && digits.startsWith("55") && !value.trimStart().startsWith("(")) digits = digits.slice(2);
  digits = digits.slice(0, 11);
  return applyPattern(digits.length > 10 ? "(99) 99999-9999" : "(99) 9999-9999", digits);
}

/** The member services' phone (spec 002): (99) 9.9999-9999, a landline's ten digits (99) 9999-9999. */
export function maskServicePhone(value: string): string {
  const digits = digitsOf(value).slice(0, 11);
  return applyPattern(digits.length > 10 ? "(99) 9.9999-9999" : "(99) 9999-9999", digits);
}

/** A stored phone as maskServicePhone shows it; anything but 10 or 11 digits as it came. */
export function formatServicePhone(phone: string): string {
  const digits = digitsOf(phone).length;
  return digits === 10 || digits === 11 ? maskServicePhone(phone) : phone;
}

/** "dd/MM/yyyy" as the API's "yyyy-MM-dd 00:00:00" (the spec sends birthdays with a time). */
export function dateToApi(masked: string): string {
  const [day, month, year] = masked.split("/");
  return `${year}-${month}-${day} 00:00:00`;
}

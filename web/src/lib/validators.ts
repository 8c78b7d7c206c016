/**
 * The shared field validators of the specification (000, section 5), with their Portuguese
 * messages exactly as the product shows them. The API has the same rules in
 * `domain/src/validate.rs`; both suites check `ops/testkit/vectors/validators.json`, so the
 * two cannot drift apart.
 *
 * A validator answers the message to show, or `undefined` when the value is fine, the shape
 * form libraries expect. Only `required` and `requiredCheckbox` reject an empty value: every
 * other rule passes it, so an optional field may stay blank and a required one reports
 * "Esse campo é obrigatório" once. Masked input is accepted where the product masks the
 * field: CPF 999.999.999-99, CEP 99.999-999, CNPJ 00.000.000/0000-00, card numbers in groups.
 */

/** The messages of the spec, typos included. `{n}` stands for the rule's limit. */
export const MESSAGES = {
  required: "Esse campo é obrigatório",
  requiredCheckbox: "Esse campo é obrigatório",
  age18: "É necessário ser maior de 18 anos.",
  noWhitespace: "O campo não pode conter apenas espaços",
  maxLength: "Esse campo deve possuir no máximo {n} caracteres",
  minLength: "Esse campo deve possuir no minimo {n} caracteres",
  number: "Este campo só aceita números",
  minValue: "O valor deve ser maior que {n}",
  maxValue: "O valor deve ser menor que {n}",
  password: "Senha precisa ter: uma letra maiúscula, uma letra minúscula, um número e tamanho entre 8 - 20.",
  email: "Email inválido",
  alphaNumeric: "Somente caracteres alfanuméricos",
  lowerCase: "Apenas letras minúsculas sem acento",
  subdomain: "Apenas letras sem acento",
  cpf: "CPF inválido",
  cep: "CEP inválido",
  cardNumber: "Número inválido",
  cvv: "CVV inválido",
  cardExpiry: "Data inválida",
  date: "Data Inválida!",
  cnpj: "CNPJ inválido",
} as const;

export type Validator<T> = (value: T | null | undefined) => string | undefined;

/** A day of the calendar, with no time and no time zone. */
export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

/** Today on this device's calendar. */
export function localToday(): CalendarDate {
  const now = new Date();
  return { year: now.getFullYear(), month: now.getMonth() + 1, day: now.getDate() };
}

/** `message` unless `ok`: how every check answers. */
export function holds(ok: boolean, message: string): string | undefined {
  return ok ? undefined : message;
}

function withLimit(template: string, limit: number): string {
  return template.replace("{n}", String(limit));
}

/** Lengths count characters (Unicode code points), not UTF-16 units. */
function characterCount(value: string): number {
  return [...value].length;
}

/** Numbers count as filled, zero included; text that is only spaces does too. */
export function required(value: string | number | null | undefined): string | undefined {
  return holds(typeof value === "number" || (value !== null && value !== undefined && value !== ""), MESSAGES.required);
}

export function requiredCheckbox(value: boolean | null | undefined): string | undefined {
  return holds(value === true, MESSAGES.requiredCheckbox);
}

export function noWhitespace(value: string | null | undefined): string | undefined {
  return holds(!value || value.trim() !== "", MESSAGES.noWhitespace);
}

export function maxLength(max: number): Validator<string> {
  return (value) => holds(!value || characterCount(value) <= max, withLimit(MESSAGES.maxLength, max));
}

export function minLength(min: number): Validator<string> {
  return (value) => holds(!value || characterCount(value) >= min, withLimit(MESSAGES.minLength, min));
}

/** Digits with an optional leading minus and an optional decimal part after `.` or `,`. */
export function number(value: string | null | undefined): string | undefined {
  return holds(!value || /^-?\d+(?:[.,]\d+)?$/.test(value), MESSAGES.number);
}

/** Strictly greater than `min`, as the message says. */
export function minValue(min: number): Validator<number> {
  return (value) => holds(value === null || value === undefined || value > min, withLimit(MESSAGES.minValue, min));
}

/** Strictly less than `max`, as the message says. */
export function maxValue(max: number): Validator<number> {
  return (value) => holds(value === null || value === undefined || value < max, withLimit(MESSAGES.maxValue, max));
}

/** An uppercase letter, a lowercase letter, a digit, and 8 to 20 characters. */
export function password(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  const length = characterCount(value);
  return holds(
    length >= 8 && length <= 20 && /\p{Uppercase}/u.test(value) && /\p{Lowercase}/u.test(value) && /[0-9]/.test(value),
    MESSAGES.password,
  );
}

const EMAIL_LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const HOST_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/;

/**
 * The shape of an address; that it is deliverable is proven by activation. ASCII only: a
 * dot-atom local part of at most 64 characters, and a host name of at least two labels whose
 * last is two or more letters. Surrounding whitespace is ignored, since the value is trimmed
 * (and lowercased) before it is stored.
 */
export function email(value: string | null | undefined): string | undefined {
  const address = value?.trim();
  if (!address) return undefined;
  const at = address.indexOf("@");
  const local = address.slice(0, at);
  const labels = address.slice(at + 1).split(".");
  const tld = labels[labels.length - 1] ?? "";
  return holds(
    at >= 0 &&
      address.length <= 254 &&
      local.length <= 64 &&
      EMAIL_LOCAL_PART.test(local) &&
      labels.length >= 2 &&
      labels.every((label) => label.length <= 63 && HOST_LABEL.test(label)) &&
      /^[A-Za-z]{2,}$/.test(tld),
    MESSAGES.email,
  );
}

/** ASCII letters and digits only: no spaces, no accents, no symbols. */
export function alphaNumeric(value: string | null | undefined): string | undefined {
  return holds(!value || /^[A-Za-z0-9]+$/.test(value), MESSAGES.alphaNumeric);
}

export function lowerCase(value: string | null | undefined): string | undefined {
  return holds(!value || /^[a-z]+$/.test(value), MESSAGES.lowerCase);
}

/**
 * A station's site name as typed: ASCII letters of either case, spaces allowed, since the
 * name is stored through `normalizeSubdomain`. Only spaces is refused.
 */
export function subdomain(value: string | null | undefined): string | undefined {
  return holds(!value || (/^[A-Za-z\s]+$/.test(value) && /[A-Za-z]/.test(value)), MESSAGES.subdomain);
}

/** The spec's normalisation of a site name: lowercased and stripped of spaces. */
export function normalizeSubdomain(value: string): string {
  return value.replace(/\s/g, "").toLowerCase();
}

/**
 * The check digits of a CPF or CNPJ (mod 11, a remainder under 2 giving 0); numbers whose
 * digits are all equal are refused. `weights` are those of the last check digit; the one
 * before it uses all but the first.
 */
function checkDigitsHold(value: string, mask: RegExp, weights: readonly number[]): boolean {
  const bare = value.replace(mask, "");
  const length = weights.length + 1;
  if (bare.length !== length || !/^\d+$/.test(bare)) return false;
  const digits = [...bare].map(Number);
  if (digits.every((digit) => digit === digits[0])) return false;
  const checkDigit = (count: number) => {
    const used = weights.slice(weights.length - count);
    const sum = used.reduce((total, weight, i) => total + weight * (digits[i] ?? 0), 0);
    const rest = sum % 11;
    return rest < 2 ? 0 : 11 - rest;
  };
  return checkDigit(length - 2) === digits[length - 2] && checkDigit(length - 1) === digits[length - 1];
}

const CPF_WEIGHTS = [11, 10, 9, 8, 7, 6, 5, 4, 3, 2] as const;
const CNPJ_WEIGHTS = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] as const;

export function cpf(value: string | null | undefined): string | undefined {
  return holds(!value || checkDigitsHold(value, /[.\- ]/g, CPF_WEIGHTS), MESSAGES.cpf);
}

export function cnpj(value: string | null | undefined): string | undefined {
  return holds(!value || checkDigitsHold(value, /[./\- ]/g, CNPJ_WEIGHTS), MESSAGES.cnpj);
}

/** Eight digits, bare or masked (99.999-999 or 99999-999). Whether the CEP exists is the address lookup's answer. */
export function cep(value: string | null | undefined): string | undefined {
  return holds(!value || /^\d{8}$/.test(value.replace(/[.\- ]/g, "")), MESSAGES.cep);
}

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

function daysInMonth(year: number, month: number): number {
  return month === 2 ? (isLeapYear(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * A calendar date written dd/MM/yyyy, as the date mask produces it. A year below 1000 is
 * "under 4 digits" even when written with a leading zero.
 */
export function parseDate(value: string): CalendarDate | undefined {
  const match = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(value);
  if (!match) return undefined;
  const [day, month, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const valid = year >= 1000 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
  return valid ? { year, month, day } : undefined;
}

export function date(value: string | null | undefined): string | undefined {
  return holds(!value || parseDate(value) !== undefined, MESSAGES.date);
}

/**
 * Eighteen or older on `today`. The birthday counts: someone born on 21/11/2008 is an adult
 * on 21/11/2026. Someone born on 29 February comes of age on 1 March in a common year, as the
 * Civil Code counts years (art. 132, §3). A value that is not a date gets the date message.
 */
export function age18(value: string | null | undefined, today: CalendarDate = localToday()): string | undefined {
  if (!value) return undefined;
  const birth = parseDate(value);
  if (!birth) return MESSAGES.date;
  const birthdayNotYet = today.month < birth.month || (today.month === birth.month && today.day < birth.day);
  const age = today.year - birth.year - (birthdayNotYet ? 1 : 0);
  return holds(age >= 18, MESSAGES.age18);
}

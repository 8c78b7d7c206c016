// The payment form's masks, checks and conversions (spec 002 section 5, "Payment form").
// The shared masks and validators (lib/masks, lib/validators) are reused where they match
// the spec; the card fields are stricter here than the shared ones: the shop takes 16-digit
// cards with a 3-digit cvc and a 4-digit expiry (spec 002 section 9, "Cards").
import { applyPattern, digitsOf, maskCep, maskCpf, maskDate } from "@/lib/masks";
import type { FormRules, Rule } from "@/components/form/use-form";
import type { CardToTokenize } from "@/types/api";
import { notCepMark } from "@/features/address";
import {
  cep as cepShape,
  cpf as cpfCheck,
  date as dateCheck,
  email,
  localToday,
  MESSAGES,
  required,
  type CalendarDate,
} from "@/lib/validators";
import { cardExpiry as sharedCardExpiry, cardNumber as luhnCardNumber } from "@/lib/card-validators";

export { maskCep, maskCpf };

/** Birth date: dd/mm/yyyy. */
export const maskBirthDate = maskDate;

/** What a phone the spec does not give a message for is told. */
export const PHONE_INVALID = "Telefone inválido";

export const CARD_NUMBER_DIGITS = 16;
export const CVC_DIGITS = 3;

/** 9999 9999 9999 9999: 16 digits in groups of 4 (19 characters with the spaces). */
export const maskCardNumber = (value: string) => applyPattern("9999 9999 9999 9999", value);

/** 99/99: month and two-digit year. */
export const maskExpiry = (value: string) => applyPattern("99/99", value);

/** (99) 9 9999-9999: area code and a mobile number. */
export const maskPaymentPhone = (value: string) => applyPattern("(99) 9 9999-9999", value);

/** Three digits. */
export const maskCvc = (value: string) => digitsOf(value).slice(0, CVC_DIGITS);

/** The CPF check digits (the shared rule the accounts forms use); masked input is fine. */
export const cpf = cpfCheck;

/** Eight digits (whether the CEP exists is the address lookup's answer). */
export const cep = cepShape;

/** A real calendar day written dd/mm/yyyy. */
export const birthDate = dateCheck;

/** Exactly 16 digits, grouped or not, passing the Luhn check. */
export function cardNumber(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  const digits = value.replace(/[ -]/g, "");
  if (!/^\d+$/.test(digits) || digits.length !== CARD_NUMBER_DIGITS) return MESSAGES.cardNumber;
  return luhnCardNumber(digits);
}

/** Exactly 3 digits. */
export function cvc(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  return new RegExp(`^\\d{${CVC_DIGITS}}$`).test(value) ? undefined : MESSAGES.cvv;
}

/**
 * MM/YY with a month from 1 to 12, not before the current month (a card is good until the
 * end of its month). Four digits without the slash are read the same way.
 */
export function expiry(value: string | null | undefined, today: CalendarDate = localToday()): string | undefined {
  if (!value) return undefined;
  if (!/^\d{2}\/?\d{2}$/.test(value)) return MESSAGES.cardExpiry;
  return sharedCardExpiry(expiryToApi(value), today);
}

/** Area code and nine digits, as the mask writes them. */
export function phone(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  return digitsOf(value).length === 11 ? undefined : PHONE_INVALID;
}

/** The expiry as the API takes it: MM/YY, whether the field held "1230" or "12/30". */
export function expiryToApi(value: string): string {
  const digits = digitsOf(value);
  return `${digits.slice(0, 2)}/${digits.slice(2, 4)}`;
}

export type PaymentType = "credit_card" | "pix";

/** `selected_card` of a card not saved yet (spec 002 section 3). */
export const NEW_CARD = "0";

/** The payment form of spec 002 section 3, as typed (masked). */
export interface PaymentFormValues {
  type: PaymentType | "";
  /** A saved card's id, or NEW_CARD. */
  selected_card: string;
  installments: string;
  save: boolean;
  number: string;
  name: string;
  cpf: string;
  birthday: string;
  email: string;
  expiry: string;
  cvv: string;
  phone: string;
  cep: string;
  city: string;
  state: string;
  street: string;
  street_number: string;
}

export const EMPTY_PAYMENT_FORM: PaymentFormValues = {
  type: "",
  selected_card: "",
  installments: "",
  save: false,
  number: "",
  name: "",
  cpf: "",
  birthday: "",
  email: "",
  expiry: "",
  cvv: "",
  phone: "",
  cep: "",
  city: "",
  state: "",
  street: "",
  street_number: "",
};

type Values = PaymentFormValues;
type TextField = Exclude<keyof Values, "save" | "type">;

const isCard = (values: Values) => values.type === "credit_card";
const isNewCard = (values: Values) => isCard(values) && values.selected_card === NEW_CARD;

/** A rule that only applies when `applies` holds for the whole form. */
function when<K extends TextField>(
  applies: (values: Values) => boolean,
  ...rules: Array<(value: string) => string | undefined>
): ReadonlyArray<Rule<Values, K>> {
  return rules.map((rule) => (value: Values[K], values: Values) => (applies(values) ? rule(value) : undefined));
}

/**
 * The rules of the payment form: the type always; with a card, the card to use and, when the
 * action allows installments and the server gave options, the installments; with a new
 * card, every card and billing address field with its check (spec 002 section 5).
 */
export function paymentFormRules({ installmentsAsked }: { installmentsAsked: boolean }): FormRules<Values> {
  const newCard = <K extends TextField>(...rules: Array<(value: string) => string | undefined>) =>
    when<K>(isNewCard, required, ...rules);
  return {
    type: [(value) => required(value)],
    selected_card: when(isCard, required),
    installments: when((values) => installmentsAsked && isCard(values), required),
    number: newCard(cardNumber),
    name: newCard(),
    cpf: newCard(cpf),
    birthday: newCard(birthDate),
    email: newCard(email),
    expiry: newCard((value) => expiry(value)),
    cvv: newCard(cvc),
    phone: newCard(phone),
    cep: newCard(cep),
    city: newCard(notCepMark),
    state: newCard(),
    street: newCard(notCepMark),
    street_number: newCard(),
  };
}

/** A new card as the tokeniser takes it: digits, the printed name, MM/YY and the cvv. */
export function cardToTokenize(values: Values): CardToTokenize {
  return {
    number: digitsOf(values.number),
    holder_name: values.name.trim(),
    expiry: expiryToApi(values.expiry),
    cvv: values.cvv,
  };
}

/**
 * A new card as Pagar.me's tokeniser takes it (`POST /tokens`): the card and its holder's
 * CPF; the billing address is not tokenised, it goes with the order.
 */
export function cardForProvider(values: Values) {
  const [month = "", year = ""] = expiryToApi(values.expiry).split("/");
  return {
    type: "card" as const,
    card: {
      number: digitsOf(values.number),
      holder_name: values.name.trim(),
      holder_document: digitsOf(values.cpf),
      exp_month: Number(month),
      exp_year: 2000 + Number(year),
      cvv: values.cvv,
    },
  };
}

/**
 * The payment part of the order as it is sent: the type alone for PIX; for a card, the
 * saved card's id or, for a new card (`selected_card` 0), the token the browser's tokeniser
 * gave for it and its billing address, with the installments and whether to save it. Card
 * data never goes in the order's body (docs/api-commerce.md, "Paying by card and PIX").
 */
export function paymentToApi(values: Values, cardToken: string | null = null) {
  if (values.type === "pix") return { type: "pix" as const, installments: 1 };
  const installments = values.installments === "" ? 1 : Number(values.installments);
  if (values.selected_card !== NEW_CARD) {
    return { type: "credit_card" as const, selected_card: Number(values.selected_card), installments };
  }
  return {
    type: "credit_card" as const,
    selected_card: 0,
    installments,
    save: values.save,
    card_token: cardToken,
    cep: digitsOf(values.cep),
    street: values.street.trim(),
    street_number: values.street_number.trim(),
    city: values.city.trim(),
    state: values.state,
  };
}

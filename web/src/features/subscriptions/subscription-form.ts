// The card form of the plan purchase, the plan's card, the subscription card and type 21
// (spec 002 section 4 "Purchase form" and section 5: every card and address field is
// required, neighborhood too). The card's checks are the shop's (16 digits, 3-digit cvv,
// MM/AA not past); the number never leaves the browser: the tokeniser turns it into a token.
import { notCepMark } from "@/features/address";
import { paymentForm } from "@/features/commerce";
import type { FormRules, Rule } from "@/components/form/use-form";
import { digitsOf } from "@/lib/masks";
import { required, type CalendarDate } from "@/lib/validators";
import type { CardChoice, NewCardPayload, NewSavedCard } from "@/features/subscriptions/api/types";

/** `selected_card` of a card not saved yet. */
export const NEW_CARD = paymentForm.NEW_CARD;
/** `selected_card` that keeps the subscription's own card (a plan change). */
export const KEEP_CARD = "atual";

export interface CardFormValues {
  /** A saved card's id, or NEW_CARD. */
  selected_card: string;
  number: string;
  name: string;
  expiry: string;
  cvv: string;
  cpf: string;
  birthday: string;
  phone: string;
  cep: string;
  street: string;
  street_number: string;
  neighborhood: string;
  state: string;
  city: string;
  save: boolean;
}

export const EMPTY_CARD_FORM: CardFormValues = {
  selected_card: NEW_CARD,
  number: "",
  name: "",
  expiry: "",
  cvv: "",
  cpf: "",
  birthday: "",
  phone: "",
  cep: "",
  street: "",
  street_number: "",
  neighborhood: "",
  state: "",
  city: "",
  save: true,
};

type TextKey = Exclude<keyof CardFormValues, "save">;
type Check = (value: string) => string | undefined;

/**
 * The rules of the card form. `asksCard` false (nothing to pay) asks nothing; otherwise a
 * card must be chosen and a new one needs every field with its check.
 */
export function cardFormRules({ asksCard, today }: { asksCard: boolean; today?: CalendarDate }): FormRules<CardFormValues> {
  const newCard = <K extends TextKey>(...checks: Check[]): ReadonlyArray<Rule<CardFormValues, K>> =>
    [required, ...checks].map(
      (check) => (value: CardFormValues[K], values: CardFormValues) =>
        asksCard && values.selected_card === NEW_CARD ? check(value) : undefined,
    );
  return {
    selected_card: [(value) => (asksCard ? required(value) : undefined)],
    number: newCard(paymentForm.cardNumber),
    name: newCard(),
    expiry: newCard((value) => paymentForm.expiry(value, today)),
    cvv: newCard(paymentForm.cvc),
    cpf: newCard(paymentForm.cpf),
    birthday: newCard(paymentForm.birthDate),
    phone: newCard(paymentForm.phone),
    cep: newCard(paymentForm.cep),
    street: newCard(notCepMark),
    street_number: newCard(),
    neighborhood: newCard(),
    state: newCard(),
    city: newCard(notCepMark),
  };
}

/** The card part the tokeniser takes (the shop's payment form shape). */
export function cardToTokenize(values: CardFormValues): paymentForm.PaymentFormValues {
  return {
    ...paymentForm.EMPTY_PAYMENT_FORM,
    type: "credit_card",
    selected_card: NEW_CARD,
    number: values.number,
    name: values.name,
    expiry: values.expiry,
    cvv: values.cvv,
    cpf: values.cpf,
  };
}

/** "dd/mm/aaaa" as "aaaa-mm-dd". */
export function birthdayToApi(masked: string): string {
  const [day = "", month = "", year = ""] = masked.split("/");
  return `${year}-${month}-${day}`;
}

/** A new card's token with its holder's and billing data, as the calls take them. */
export function newCardToApi(values: CardFormValues, cardToken: string): NewCardPayload {
  return {
    card_token: cardToken,
    card_holder_name: values.name.trim(),
    card_expiration_date: paymentForm.expiryToApi(values.expiry),
    cpf: digitsOf(values.cpf),
    birthday: birthdayToApi(values.birthday),
    phone: digitsOf(values.phone),
    zipcode: digitsOf(values.cep),
    street: values.street.trim(),
    street_number: values.street_number.trim(),
    neighborhood: values.neighborhood.trim(),
    state: values.state,
    city: values.city.trim(),
  };
}

/** A new card to keep (POST /user-credit-cards: its own field names, the birthday as typed). */
export function savedCardToApi(values: CardFormValues, cardToken: string): NewSavedCard {
  return {
    card_token: cardToken,
    name: values.name.trim(),
    cpf: digitsOf(values.cpf),
    birthday: values.birthday,
    phone: digitsOf(values.phone),
    cep: digitsOf(values.cep),
    street: values.street.trim(),
    street_number: values.street_number.trim(),
    city: values.city.trim(),
    state: values.state,
  };
}

/** The saved card chosen, or the new card (its token made by the caller). */
export function cardChoiceToApi(values: CardFormValues, cardToken: string | null): CardChoice {
  if (values.selected_card !== NEW_CARD || cardToken === null) return { selected_card: Number(values.selected_card) };
  return { ...newCardToApi(values, cardToken), save: values.save };
}

export type CardBrand = "Visa" | "Mastercard" | "American Express" | "Elo" | "Hipercard" | "Diners";

/** The brand a number's first digits tell, for the card preview (the provider decides the real one). */
export function cardBrandOf(number: string): CardBrand | null {
  const digits = digitsOf(number);
  if (/^(4011|4312|4389|4514|4576|5041|5066|5067|509|6277|6362|6363|650|6516|6550)/.test(digits)) return "Elo";
  if (/^(606282|3841)/.test(digits)) return "Hipercard";
  if (/^4/.test(digits)) return "Visa";
  if (/^(5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720))/.test(digits)) return "Mastercard";
  if (/^3[47]/.test(digits)) return "American Express";
  if (/^3(0[0-5]|[68])/.test(digits)) return "Diners";
  return null;
}

/**
 * The number as the preview shows it: the first four and the last four digits typed, the
 * middle hidden, and dots where digits are still to come ("4111 •••• •••• 1111").
 */
export function previewCardNumber(number: string): string {
  const digits = digitsOf(number).slice(0, paymentForm.CARD_NUMBER_DIGITS);
  const slots = Array.from({ length: paymentForm.CARD_NUMBER_DIGITS }, (_, index) => {
    const digit = digits[index];
    if (digit === undefined) return "•";
    return index < 4 || index >= 12 ? digit : "•";
  });
  return [0, 4, 8, 12].map((start) => slots.slice(start, start + 4).join("")).join(" ");
}

// The 'Abastecer créditos' form (spec 002, /homepage/meios-de-pagamento/comprar): the
// method, 'Quantidade em BRL' and, for a card, which one. The limits are the station's
// (GET /wallet/topup-settings) and the texts the server's, so a refusal reads the same
// whether the browser or the server finds it first.
import type { FormRules, Rule } from "@/components/form/use-form";
import { notCepMark } from "@/features/address";
import { paymentForm } from "@/features/commerce";
import type { TopUp, TopUpRequest, TopUpSettings } from "@/types/api";
import { formatCents } from "@/lib/currency";
import { digitsOf } from "@/lib/masks";
import { required } from "@/lib/validators";

export type PaymentMethod = "pix" | "card" | "transfer";

export const METHOD_LABELS: Record<PaymentMethod, string> = {
  pix: "PIX",
  card: "Cartão",
  transfer: "Transferência",
};

export const AMOUNT_LABEL = "Quantidade em BRL";
export const SUBMIT_TEXT = "Fazer pedido";
export const SUCCESS_TITLE = "Sucesso";
export const SUCCESS_TEXT = "Operação realizada com sucesso";
export const GENERIC_ERROR_TEXT = "Erro";
export const AMOUNT_REQUIRED = "Informe a quantidade em BRL.";
export const METHOD_REQUIRED = "Escolha a forma de pagamento.";
export const CARD_REQUIRED = "Escolha o cartão.";

/** Centavos as the limits' texts write them: "R$ 1.234,56". */
const brl = (cents: number) => `R$ ${formatCents(cents)}`;

export const minimumText = (cents: number) => `O valor mínimo é ${brl(cents)}.`;
export const maximumText = (cents: number) => `O valor máximo por pedido é ${brl(cents)}.`;
export const dailyLimitText = (leftCents: number) =>
  `Limite diário de recarga atingido: você ainda pode pedir ${brl(Math.max(leftCents, 0))}.`;

/** The field holds the mask's "R$ 1.234,56": its digits are the centavos. */
export function centsOf(masked: string): number {
  const digits = digitsOf(masked);
  return digits === "" ? 0 : Number(digits);
}

/** Centavos as the API's `points`: reais with up to two decimals. */
export function pointsOf(cents: number): number {
  return cents / 100;
}

type Limits = Pick<TopUpSettings, "min_cents" | "max_cents" | "daily_left_cents">;

/** What the amount is told, or nothing when it may be sent. */
export function amountError(cents: number, limits: Limits): string | undefined {
  if (cents <= 0) return AMOUNT_REQUIRED;
  if (cents < limits.min_cents) return minimumText(limits.min_cents);
  if (cents > limits.max_cents) return maximumText(limits.max_cents);
  if (cents > limits.daily_left_cents) return dailyLimitText(limits.daily_left_cents);
  return undefined;
}

/** The methods this station offers: a transfer only with its bank details to pay into. */
export function methodsFor(settings: Pick<TopUpSettings, "bank">): PaymentMethod[] {
  return settings.bank ? ["pix", "card", "transfer"] : ["pix", "card"];
}

/** A top-up waiting on staff because of its amount (above `review_above_cents`). */
export const REVIEW_TITLE = "Pedido em análise";
export const REVIEW_TEXT =
  "Recebemos o seu pagamento. Por causa do valor, o pedido passa por uma análise da nossa equipe antes de os créditos entrarem no seu saldo. Você será informado por e-mail assim que for confirmado.";

/** A card charge the provider has not decided yet (it answers later; the page keeps reading). */
export const PROCESSING_TITLE = "Pagamento em processamento";
export const PROCESSING_TEXT =
  "Seu pagamento está sendo processado. Os créditos entram no seu saldo assim que ele for aprovado.";

/** The dialog after a transfer request (spec 002: the order was generated; an e-mail follows). */
export const TRANSFER_DONE_TITLE = "Pedido gerado";
export const transferDoneText = (expiryHours: number) =>
  `Seu pedido de transferência foi gerado. Faça a transferência para os dados bancários informados em até ${expiryHours} horas. Você será informado por e-mail assim que o pagamento for confirmado.`;

/** What the PIX wait's live region says. */
export const PIX_WAITING_TEXT = "Aguardando a confirmação do pagamento.";
export const PIX_CREDITED_TEXT = "Pagamento confirmado. Os créditos já estão no seu saldo.";

/** A top-up the provider or staff settled otherwise: the reason the server gave, else 'Erro'. */
export function failureText(topUp: Pick<TopUp, "failure_reason">): string {
  return topUp.failure_reason?.trim() ? topUp.failure_reason : GENERIC_ERROR_TEXT;
}

/** `selected_card` of a card not saved yet (as the shop's form). */
export const NEW_CARD = paymentForm.NEW_CARD;

export interface TopUpFormValues {
  method: PaymentMethod | "";
  /** Masked "R$ 1.234,56". */
  amount: string;
  /** A saved card's id, or NEW_CARD. */
  selected_card: string;
  save: boolean;
  number: string;
  name: string;
  expiry: string;
  cvv: string;
  cpf: string;
  /** The billing address, asked only to save the new card. */
  cep: string;
  street: string;
  street_number: string;
  city: string;
  state: string;
}

export const EMPTY_TOP_UP_FORM: TopUpFormValues = {
  method: "",
  amount: "",
  selected_card: "",
  save: false,
  number: "",
  name: "",
  expiry: "",
  cvv: "",
  cpf: "",
  cep: "",
  street: "",
  street_number: "",
  city: "",
  state: "",
};

type CardText = "number" | "name" | "expiry" | "cvv" | "cpf" | "cep" | "street" | "street_number" | "city" | "state";

const isNewCard = (values: TopUpFormValues) => values.method === "card" && values.selected_card === NEW_CARD;
const savesNewCard = (values: TopUpFormValues) => isNewCard(values) && values.save;

/** A field required, then checked, only when `applies` holds for the whole form. */
function ruleWhen<K extends CardText>(
  applies: (values: TopUpFormValues) => boolean,
  check?: (value: string) => string | undefined,
): ReadonlyArray<Rule<TopUpFormValues, K>> {
  return [(value, values) => (applies(values) ? (required(value) ?? check?.(value)) : undefined)];
}

export function topUpFormRules(settings: Pick<TopUpSettings, "min_cents" | "max_cents" | "daily_left_cents">): FormRules<TopUpFormValues> {
  return {
    method: [(value) => (value === "" ? METHOD_REQUIRED : undefined)],
    amount: [(value) => amountError(centsOf(value), settings)],
    selected_card: [(value, values) => (values.method === "card" && value === "" ? CARD_REQUIRED : undefined)],
    number: ruleWhen(isNewCard, paymentForm.cardNumber),
    name: ruleWhen(isNewCard),
    expiry: ruleWhen(isNewCard, (value) => paymentForm.expiry(value)),
    cvv: ruleWhen(isNewCard, paymentForm.cvc),
    cpf: ruleWhen(isNewCard, paymentForm.cpf),
    cep: ruleWhen(savesNewCard, paymentForm.cep),
    street: ruleWhen(savesNewCard, notCepMark),
    street_number: ruleWhen(savesNewCard),
    city: ruleWhen(savesNewCard, notCepMark),
    state: ruleWhen(savesNewCard),
  };
}

/** A new card as the shop's tokeniser takes it (the checkout's form, card fields only). */
export function cardToTokenize(values: TopUpFormValues): paymentForm.PaymentFormValues {
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

/** The body of POST /user-buy-points-transaction: PIX, a saved card, or a new card's token. */
export function topUpToApi(values: TopUpFormValues, cardToken: string | null = null): TopUpRequest {
  const points = pointsOf(centsOf(values.amount));
  if (values.method !== "card") return { points, method: "pix" };
  if (values.selected_card !== NEW_CARD) return { points, method: "card", card_id: Number(values.selected_card) };
  if (!values.save) return { points, method: "card", card_token: cardToken ?? "" };
  return {
    points,
    method: "card",
    card_token: cardToken ?? "",
    save_card: true,
    billing_address: {
      cep: digitsOf(values.cep),
      street: values.street.trim(),
      street_number: values.street_number.trim(),
      city: values.city.trim(),
      state: values.state,
    },
  };
}

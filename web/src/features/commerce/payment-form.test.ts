import { describe, expect, it } from "vitest";
import {
  birthDate,
  cardNumber,
  cep,
  cpf,
  cvc,
  EMPTY_PAYMENT_FORM,
  expiry,
  expiryToApi,
  maskBirthDate,
  maskCardNumber,
  maskCep,
  maskCpf,
  maskCvc,
  maskExpiry,
  maskPaymentPhone,
  NEW_CARD,
  paymentFormRules,
  paymentToApi,
  cardToTokenize,
  cardForProvider,
  phone,
  PHONE_INVALID,
  type PaymentFormValues,
} from "@/features/commerce/payment-form";

const NOV_2026 = { year: 2026, month: 11, day: 24 };

describe("payment form masks", () => {
  it("mask the CPF as 999.999.999-99, dropping anything past it", () => {
    expect(maskCpf("52998224725")).toBe("529.982.247-25");
    expect(maskCpf("529.982.247-2599")).toBe("529.982.247-25");
    expect(maskCpf("529a98")).toBe("529.98");
  });

  it("mask the expiry as 99/99", () => {
    expect(maskExpiry("1")).toBe("1");
    expect(maskExpiry("12")).toBe("12");
    expect(maskExpiry("123")).toBe("12/3");
    expect(maskExpiry("12305")).toBe("12/30");
  });

  it("mask the CEP as 99.999-999", () => {
    expect(maskCep("01310100")).toBe("01.310-100");
    expect(maskCep("01310-1009")).toBe("01.310-100");
  });

  it("mask the phone as (99) 9 9999-9999", () => {
    expect(maskPaymentPhone("11987654321")).toBe("(11) 9 8765-4321");
    expect(maskPaymentPhone("119")).toBe("(11) 9");
    expect(maskPaymentPhone("(11) 9 8765-43219")).toBe("(11) 9 8765-4321");
  });

  it("mask the birth date as dd/mm/yyyy", () => {
    expect(maskBirthDate("09031990")).toBe("09/03/1990");
    expect(maskBirthDate("0903")).toBe("09/03");
  });

  it("mask the card number in four groups of four, 19 characters at most", () => {
    expect(maskCardNumber("4111111111111111")).toBe("4111 1111 1111 1111");
    expect(maskCardNumber("41111")).toBe("4111 1");
    expect(maskCardNumber("4111-1111-1111-1111-999")).toBe("4111 1111 1111 1111");
    expect(maskCardNumber("4111111111111111999")).toHaveLength(19);
  });

  it("keep three digits of the cvc", () => {
    expect(maskCvc("12a34")).toBe("123");
  });
});

describe("payment form checks", () => {
  it("check the CPF digits", () => {
    expect(cpf("529.982.247-25")).toBeUndefined();
    expect(cpf("52998224725")).toBeUndefined();
    expect(cpf("529.982.247-24")).toBe("CPF inválido");
    expect(cpf("111.111.111-11")).toBe("CPF inválido");
  });

  it("take a 16-digit card number that passes Luhn", () => {
    expect(cardNumber("4111 1111 1111 1111")).toBeUndefined();
    expect(cardNumber("4242424242424242")).toBeUndefined();
    expect(cardNumber("4111 1111 1111 1112")).toBe("Número inválido");
  });

  it("refuse card numbers of other lengths, even when they pass Luhn", () => {
    // A 15-digit Amex test number and a 19-digit one, both valid by Luhn.
    expect(cardNumber("378282246310005")).toBe("Número inválido");
    expect(cardNumber("4111111111111111110")).toBe("Número inválido");
    expect(cardNumber("4111 1111 1111 111")).toBe("Número inválido");
    expect(cardNumber("4111 1111 1111 111a")).toBe("Número inválido");
  });

  it("take a cvc of exactly three digits", () => {
    expect(cvc("123")).toBeUndefined();
    expect(cvc("12")).toBe("CVV inválido");
    expect(cvc("1234")).toBe("CVV inválido");
    expect(cvc("12a")).toBe("CVV inválido");
  });

  it("take an expiry with a month from 1 to 12", () => {
    expect(expiry("01/27", NOV_2026)).toBeUndefined();
    expect(expiry("12/30", NOV_2026)).toBeUndefined();
    expect(expiry("1230", NOV_2026)).toBeUndefined();
    expect(expiry("00/27", NOV_2026)).toBe("Data inválida");
    expect(expiry("13/27", NOV_2026)).toBe("Data inválida");
  });

  it("take an expiry in the current month but not before", () => {
    expect(expiry("11/26", NOV_2026)).toBeUndefined();
    expect(expiry("10/26", NOV_2026)).toBe("Data inválida");
    expect(expiry("12/25", NOV_2026)).toBe("Data inválida");
  });

  it("refuse an expiry that is not 4 digits", () => {
    expect(expiry("1/27", NOV_2026)).toBe("Data inválida");
    expect(expiry("12/2030", NOV_2026)).toBe("Data inválida");
    expect(expiry("12/3", NOV_2026)).toBe("Data inválida");
  });

  it("take a CEP of eight digits", () => {
    expect(cep("01.310-100")).toBeUndefined();
    expect(cep("01.310-10")).toBe("CEP inválido");
  });

  it("take a complete phone", () => {
    expect(phone("(11) 9 8765-4321")).toBeUndefined();
    expect(phone("(11) 9 8765-432")).toBe(PHONE_INVALID);
  });

  it("take a birth date that is a real day", () => {
    expect(birthDate("29/02/2000")).toBeUndefined();
    expect(birthDate("29/02/2001")).toBe("Data Inválida!");
    expect(birthDate("09/03")).toBe("Data Inválida!");
  });

  it("pass empty values to the required rule", () => {
    for (const check of [cpf, cardNumber, cvc, expiry, cep, phone, birthDate]) {
      expect(check("")).toBeUndefined();
    }
  });
});

describe("payment form conversions on sending", () => {
  it("send the expiry as MM/YY", () => {
    expect(expiryToApi("12/30")).toBe("12/30");
    expect(expiryToApi("0127")).toBe("01/27");
  });
});

const NEW_CARD_FORM: PaymentFormValues = {
  ...EMPTY_PAYMENT_FORM,
  type: "credit_card",
  selected_card: NEW_CARD,
  installments: "3",
  save: true,
  number: "4111 1111 1111 1111",
  name: " Maria da Silva ",
  cpf: "529.982.247-25",
  birthday: "09/03/1990",
  email: "maria@example.com",
  expiry: "12/30",
  cvv: "123",
  phone: "(11) 9 8765-4321",
  cep: "01.310-100",
  city: "São Paulo",
  state: "SP",
  street: "Avenida Paulista",
  street_number: "1000",
};

/** Each field's first broken rule, as the form shows it. */
function errorsOf(values: PaymentFormValues, installmentsAsked = false) {
  const rules = paymentFormRules({ installmentsAsked });
  const errors: Partial<Record<keyof PaymentFormValues, string>> = {};
  for (const name of Object.keys(rules) as Array<keyof PaymentFormValues>) {
    for (const rule of rules[name] ?? []) {
      const message = (rule as (value: unknown, all: PaymentFormValues) => string | undefined)(values[name], values);
      if (message) {
        errors[name] = message;
        break;
      }
    }
  }
  return errors;
}

describe("payment form rules", () => {
  it("ask for the payment type", () => {
    expect(errorsOf(EMPTY_PAYMENT_FORM)).toEqual({ type: "Esse campo é obrigatório" });
  });

  it("ask for nothing else with PIX", () => {
    expect(errorsOf({ ...EMPTY_PAYMENT_FORM, type: "pix" })).toEqual({});
  });

  it("ask which card, and the installments only when they are offered", () => {
    const card = { ...EMPTY_PAYMENT_FORM, type: "credit_card" as const };
    expect(errorsOf(card)).toEqual({ selected_card: "Esse campo é obrigatório" });
    expect(errorsOf({ ...card, selected_card: "12" })).toEqual({});
    expect(errorsOf({ ...card, selected_card: "12" }, true)).toEqual({ installments: "Esse campo é obrigatório" });
  });

  it("ask for every field of a new card", () => {
    const errors = errorsOf({ ...EMPTY_PAYMENT_FORM, type: "credit_card", selected_card: NEW_CARD });
    expect(Object.keys(errors).sort()).toEqual(
      [
        "number",
        "name",
        "cpf",
        "birthday",
        "email",
        "expiry",
        "cvv",
        "phone",
        "cep",
        "city",
        "state",
        "street",
        "street_number",
      ].sort(),
    );
    expect(new Set(Object.values(errors))).toEqual(new Set(["Esse campo é obrigatório"]));
  });

  it("check each field of a new card", () => {
    expect(errorsOf(NEW_CARD_FORM, true)).toEqual({});
    expect(
      errorsOf({
        ...NEW_CARD_FORM,
        number: "4111 1111 1111 1112",
        cpf: "529.982.247-24",
        birthday: "31/02/1990",
        email: "maria@",
        expiry: "13/30",
        cvv: "12",
        phone: "(11) 9 8765",
        cep: "01.310",
        // What a CEP the lookup did not find writes: a mark, not an address to bill.
        city: "CEP inválido",
        street: "CEP inválido",
      }),
    ).toEqual({
      number: "Número inválido",
      cpf: "CPF inválido",
      birthday: "Data Inválida!",
      email: "Email inválido",
      expiry: "Data inválida",
      cvv: "CVV inválido",
      phone: PHONE_INVALID,
      cep: "CEP inválido",
      city: "CEP inválido",
      street: "CEP inválido",
    });
  });
});

describe("paymentToApi", () => {
  it("sends only the type for PIX", () => {
    expect(paymentToApi({ ...NEW_CARD_FORM, type: "pix" })).toEqual({ type: "pix", installments: 1 });
  });

  it("sends a saved card with its installments", () => {
    expect(paymentToApi({ ...EMPTY_PAYMENT_FORM, type: "credit_card", selected_card: "12", installments: "2" })).toEqual({
      type: "credit_card",
      selected_card: 12,
      installments: 2,
    });
    expect(paymentToApi({ ...EMPTY_PAYMENT_FORM, type: "credit_card", selected_card: "12" })).toMatchObject({
      installments: 1,
    });
  });

  it("sends a new card as its token and billing address, never the number nor the cvv", () => {
    const sent = paymentToApi(NEW_CARD_FORM, "tok_abc");
    expect(sent).toEqual({
      type: "credit_card",
      selected_card: 0,
      installments: 3,
      save: true,
      card_token: "tok_abc",
      cep: "01310100",
      street: "Avenida Paulista",
      street_number: "1000",
      city: "São Paulo",
      state: "SP",
    });
    expect(JSON.stringify(sent)).not.toContain("4111");
    expect(JSON.stringify(sent)).not.toContain('"123"');
  });
});

describe("cardForProvider", () => {
  it("gives Pagar.me's tokeniser the card, the holder's CPF and a four-digit year", () => {
    expect(cardForProvider({ ...NEW_CARD_FORM, expiry: "0731" })).toEqual({
      type: "card",
      card: {
        number: "4111111111111111",
        holder_name: "Maria da Silva",
        holder_document: "52998224725",
        exp_month: 7,
        exp_year: 2031,
        cvv: "123",
      },
    });
  });
});

describe("cardToTokenize", () => {
  it("gives the tokeniser the digits, the trimmed name, MM/YY and the cvv", () => {
    expect(cardToTokenize({ ...NEW_CARD_FORM, expiry: "1230" })).toEqual({
      number: "4111111111111111",
      holder_name: "Maria da Silva",
      expiry: "12/30",
      cvv: "123",
    });
  });
});

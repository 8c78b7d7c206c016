import { describe, expect, it } from "vitest";
import {
  EMPTY_CARD_FORM,
  KEEP_CARD,
  cardBrandOf,
  cardChoiceToApi,
  cardFormRules,
  previewCardNumber,
  type CardFormValues,
} from "@/features/subscriptions/subscription-form";

const TODAY = { year: 2026, month: 11, day: 29 };

const FILLED: CardFormValues = {
  ...EMPTY_CARD_FORM,
  number: "4000 0000 0000 0010",
  name: "Maria da Silva",
  expiry: "12/30",
  cvv: "123",
  cpf: "529.982.247-25",
  birthday: "01/02/1990",
  phone: "(11) 9 8765-4321",
  cep: "01.310-100",
  street: "Rua Augusta",
  street_number: "100",
  neighborhood: "Consolação",
  state: "SP",
  city: "São Paulo",
};

/** The first broken rule of each field, as the form shows them. */
function errorsOf(values: CardFormValues, asksCard = true) {
  const rules = cardFormRules({ asksCard, today: TODAY });
  const errors: Record<string, string> = {};
  for (const [name, list] of Object.entries(rules)) {
    for (const rule of list as ReadonlyArray<(value: unknown, values: CardFormValues) => string | undefined>) {
      const message = rule(values[name as keyof CardFormValues], values);
      if (message) {
        errors[name] = message;
        break;
      }
    }
  }
  return errors;
}

describe("card form rules", () => {
  it("requires every card and address field, neighborhood included", () => {
    const required = "Esse campo é obrigatório";
    expect(errorsOf(EMPTY_CARD_FORM)).toEqual({
      number: required,
      name: required,
      expiry: required,
      cvv: required,
      cpf: required,
      birthday: required,
      phone: required,
      cep: required,
      street: required,
      street_number: required,
      neighborhood: required,
      state: required,
      city: required,
    });
  });

  it("passes a filled card", () => {
    expect(errorsOf(FILLED)).toEqual({});
  });

  it("gives each field's own message", () => {
    expect(
      errorsOf({
        ...FILLED,
        number: "4000 0000 0000 0011",
        expiry: "10/26",
        cvv: "12",
        cpf: "111.111.111-12",
        birthday: "31/02/1990",
        phone: "(11) 9876",
        cep: "01.310",
        city: "CEP inválido",
      }),
    ).toEqual({
      number: "Número inválido",
      expiry: "Data inválida",
      cvv: "CVV inválido",
      cpf: "CPF inválido",
      birthday: "Data Inválida!",
      phone: "Telefone inválido",
      cep: "CEP inválido",
      city: "CEP inválido",
    });
  });

  it("asks nothing of a saved card, the kept card, or when nothing is due", () => {
    expect(errorsOf({ ...EMPTY_CARD_FORM, selected_card: "7" })).toEqual({});
    expect(errorsOf({ ...EMPTY_CARD_FORM, selected_card: KEEP_CARD })).toEqual({});
    expect(errorsOf({ ...EMPTY_CARD_FORM, selected_card: "" })).toEqual({ selected_card: "Esse campo é obrigatório" });
    expect(errorsOf(EMPTY_CARD_FORM, false)).toEqual({});
  });
});

describe("what the calls take", () => {
  it("sends a saved card's id, or the token with the billing data and never the number", () => {
    expect(cardChoiceToApi({ ...FILLED, selected_card: "7" }, null)).toEqual({ selected_card: 7 });
    const sent = cardChoiceToApi(FILLED, "tok_123");
    expect(sent).toEqual({
      card_token: "tok_123",
      card_holder_name: "Maria da Silva",
      card_expiration_date: "12/30",
      cpf: "52998224725",
      birthday: "1990-02-01",
      phone: "11987654321",
      zipcode: "01310100",
      street: "Rua Augusta",
      street_number: "100",
      neighborhood: "Consolação",
      state: "SP",
      city: "São Paulo",
      save: true,
    });
    expect(JSON.stringify(sent)).not.toContain("4000");
  });
});

describe("card preview", () => {
  it("shows the first and last four digits typed, the rest hidden", () => {
    expect(previewCardNumber("")).toBe("•••• •••• •••• ••••");
    expect(previewCardNumber("4111 11")).toBe("4111 •••• •••• ••••");
    expect(previewCardNumber("4111 1111 1111 1234")).toBe("4111 •••• •••• 1234");
  });

  it("tells the brand by the first digits", () => {
    expect(cardBrandOf("4111")).toBe("Visa");
    expect(cardBrandOf("5555 4444")).toBe("Mastercard");
    expect(cardBrandOf("2221 00")).toBe("Mastercard");
    expect(cardBrandOf("3782")).toBe("American Express");
    expect(cardBrandOf("6362 97")).toBe("Elo");
    expect(cardBrandOf("6062 82")).toBe("Hipercard");
    expect(cardBrandOf("9")).toBeNull();
  });
});

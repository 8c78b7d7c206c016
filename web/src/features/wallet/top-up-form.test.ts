import { describe, expect, it } from "vitest";
import {
  AMOUNT_REQUIRED,
  EMPTY_TOP_UP_FORM,
  NEW_CARD,
  amountError,
  centsOf,
  dailyLimitText,
  maximumText,
  methodsFor,
  minimumText,
  pointsOf,
  topUpToApi,
} from "@/features/wallet/top-up-form";

const LIMITS = { min_cents: 1000, max_cents: 500_000, daily_left_cents: 20_000 };

describe("the amount", () => {
  it("reads the mask's digits as centavos and sends reais", () => {
    expect(centsOf("R$ 1.234,56")).toBe(123_456);
    expect(centsOf("")).toBe(0);
    expect(pointsOf(123_456)).toBe(1234.56);
    expect(pointsOf(1005)).toBe(10.05);
  });

  it("says the server's texts for the station's limits", () => {
    expect(amountError(0, LIMITS)).toBe(AMOUNT_REQUIRED);
    expect(amountError(999, LIMITS)).toBe("O valor mínimo é R$ 10,00.");
    expect(amountError(500_001, { ...LIMITS, daily_left_cents: 1_000_000 })).toBe("O valor máximo por pedido é R$ 5.000,00.");
    expect(amountError(20_001, LIMITS)).toBe("Limite diário de recarga atingido: você ainda pode pedir R$ 200,00.");
    expect(amountError(20_000, LIMITS)).toBeUndefined();
    expect(amountError(1000, LIMITS)).toBeUndefined();
  });

  it("never offers a negative amount left for the day", () => {
    expect(dailyLimitText(-50)).toBe("Limite diário de recarga atingido: você ainda pode pedir R$ 0,00.");
    expect(minimumText(1000)).toBe("O valor mínimo é R$ 10,00.");
    expect(maximumText(123_456)).toBe("O valor máximo por pedido é R$ 1.234,56.");
  });
});

describe("the methods", () => {
  it("offers a transfer only with the station's bank details", () => {
    expect(methodsFor({ bank: null })).toEqual(["pix", "card"]);
    expect(
      methodsFor({ bank: { bank_name: "B", agency: "1", account: "2", holder: "H", document: "D", pix_key: null } }),
    ).toEqual(["pix", "card", "transfer"]);
  });
});

describe("the body sent", () => {
  const base = { ...EMPTY_TOP_UP_FORM, amount: "R$ 50,00" };

  it("is the amount alone for PIX", () => {
    expect(topUpToApi({ ...base, method: "pix" })).toEqual({ points: 50, method: "pix" });
  });

  it("names a saved card by its id", () => {
    expect(topUpToApi({ ...base, method: "card", selected_card: "12" })).toEqual({ points: 50, method: "card", card_id: 12 });
  });

  it("carries a new card's token, never its number, and its billing address only to save it", () => {
    const newCard = { ...base, method: "card" as const, selected_card: NEW_CARD, number: "4111 1111 1111 1111", cvv: "123" };
    const once = topUpToApi(newCard, "tok_1");
    expect(once).toEqual({ points: 50, method: "card", card_token: "tok_1" });
    expect(JSON.stringify(once)).not.toContain("4111");

    const saved = topUpToApi(
      { ...newCard, save: true, cep: "01310-100", street: " Avenida Paulista ", street_number: "1000", city: "São Paulo", state: "SP" },
      "tok_2",
    );
    expect(saved).toEqual({
      points: 50,
      method: "card",
      card_token: "tok_2",
      save_card: true,
      billing_address: { cep: "01310100", street: "Avenida Paulista", street_number: "1000", city: "São Paulo", state: "SP" },
    });
  });
});

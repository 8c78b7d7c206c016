import { describe, expect, it } from "vitest";
import { formatBrl, formatPoints } from "@/features/commerce/money";

describe("formatBrl", () => {
  it.each([
    [0, "R$ 0,00"],
    [5, "R$ 0,05"],
    [1999, "R$ 19,99"],
    [123456, "R$ 1.234,56"],
    [100000000, "R$ 1.000.000,00"],
    [-1250, "-R$ 12,50"],
  ])("formats %i centavos as %s", (cents, text) => {
    expect(formatBrl(cents)).toBe(text);
  });
});

describe("formatPoints", () => {
  it("shows the amount in the station's currency, after or before", () => {
    expect(
      formatPoints(1200, { currency_multiplier: 1, currency_name: "Pontos", currency_name_position: "after" }),
    ).toBe("12,00 Pontos");
    expect(
      formatPoints(1200, { currency_multiplier: 1, currency_name: "F$", currency_name_position: "before_currency" }),
    ).toBe("F$ 12,00");
  });

  it("applies the station's multiplier", () => {
    expect(
      formatPoints(123456, { currency_multiplier: 10, currency_name: "Pontos", currency_name_position: "after" }),
    ).toBe("12.345,60 Pontos");
  });
});

import { describe, expect, it } from "vitest";
import { applyMultiplier, formatBrl, formatCents, formatStationAmount, type CurrencySettings } from "@/lib/currency";

const points = (overrides: Partial<CurrencySettings> = {}): CurrencySettings => ({
  currency_multiplier: 1,
  currency_name: "Pontos",
  currency_name_position: "after",
  ...overrides,
});

describe("formatCents", () => {
  it.each([
    [0, "0,00"],
    [5, "0,05"],
    [50, "0,50"],
    [5000, "50,00"],
    [15050, "150,50"],
    [123456789, "1.234.567,89"],
    [100000000, "1.000.000,00"],
    [-2550, "-25,50"],
  ])("formats %i hundredths as %s", (cents, text) => {
    expect(formatCents(cents)).toBe(text);
  });
});

describe("applyMultiplier", () => {
  it("keeps the amount with multiplier 1", () => {
    expect(applyMultiplier(15050, 1)).toBe(15050n);
  });

  it("scales by 0.01 without float drift, rounding half away from zero", () => {
    // 15050 x 0.01 = 150.5 hundredths: a float product would give 150.50000000000003.
    expect(applyMultiplier(15050, 0.01)).toBe(151n);
    expect(applyMultiplier(15049, 0.01)).toBe(150n);
    expect(applyMultiplier(-15050, 0.01)).toBe(-151n);
    expect(applyMultiplier(1, 0.01)).toBe(0n);
  });

  it("scales by 2.5", () => {
    expect(applyMultiplier(5000, 2.5)).toBe(12500n);
    expect(applyMultiplier(3, 2.5)).toBe(8n);
  });

  it("reads multipliers that print in exponent form", () => {
    expect(applyMultiplier(100_000_000, 1e-7)).toBe(10n);
    expect(applyMultiplier(1, 1e21)).toBe(10n ** 21n);
  });

  it("stays exact for large balances", () => {
    expect(applyMultiplier(9_007_199_254_740_991, 0.3)).toBe(2_702_159_776_422_297n);
  });
});

describe("formatStationAmount", () => {
  it.each([
    [1, "after", 5000, "50,00 Pontos"],
    [1, "before_currency", 5000, "Pontos 50,00"],
    [0.01, "after", 5000, "0,50 Pontos"],
    [0.01, "before_currency", 15050, "Pontos 1,51"],
    [2.5, "after", 123456, "3.086,40 Pontos"],
    [2.5, "before_currency", 5000, "Pontos 125,00"],
  ] as const)("multiplier %s, name %s: %i -> %s", (multiplier, position, cents, text) => {
    expect(
      formatStationAmount(cents, points({ currency_multiplier: multiplier, currency_name_position: position })),
    ).toBe(text);
  });

  it("puts a currency name such as R$ before the amount", () => {
    expect(formatStationAmount(1999, points({ currency_name: "R$", currency_name_position: "before_currency" }))).toBe(
      "R$ 19,99",
    );
  });

  it("shows the bare amount when the station names no currency", () => {
    expect(formatStationAmount(1999, points({ currency_name: " " }))).toBe("19,99");
  });
});

describe("formatBrl", () => {
  it("writes reais as the server does, the sign before the symbol", () => {
    expect(formatBrl(11_980)).toBe("R$ 119,80");
    expect(formatBrl(0)).toBe("R$ 0,00");
    expect(formatBrl(123_456_78)).toBe("R$ 123.456,78");
    expect(formatBrl(-2_550)).toBe("-R$ 25,50");
  });
});

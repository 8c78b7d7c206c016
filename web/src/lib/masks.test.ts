import { describe, expect, it } from "vitest";
import { maskCurrencyBrl } from "@/lib/currency-mask";
import {
  dateToApi,
  digitsOf,
  formatServicePhone,
  maskCep,
  maskCnpj,
  maskCode,
  maskCpf,
  maskDate,
  maskPhone,
  maskServicePhone,
} from "@/lib/masks";

describe("masks", () => {
  it("mask CPF, CEP, date and CNPJ as the spec writes them", () => {
    expect(maskCpf("52998224725")).toBe("529.982.247-25");
    expect(maskCpf("529.98a2")).toBe("529.982");
    expect(maskCpf("5299822472599")).toBe("529.982.247-25");
    expect(maskCep("01310100")).toBe("01.310-100");
    expect(maskDate("05052023")).toBe("05/05/2023");
    expect(maskCnpj("11222333000181")).toBe("11.222.333/0001-81");
  });

  it("mask phones with 10 or 11 digits", () => {
    expect(maskPhone("1133334444")).toBe("(11) 3333-4444");
    expect(maskPhone("11987654321")).toBe("(11) 98765-4321");
    expect(maskPhone("119")).toBe("(11) 9");
    expect(maskPhone("+55 11 98765-4321")).toBe("(11) 98765-4321");
    expect(maskPhone("55 11 3333-4444")).toBe("(11) 3333-4444");
    expect(maskPhone("(55) 98765-43210")).toBe("(55) 98765-4321");
  });

  it("mask and show the member services' phones as (99) 9.9999-9999 or (99) 9999-9999", () => {
    expect(maskServicePhone("11987654321")).toBe("(11) 9.8765-4321");
    expect(maskServicePhone("1133334444")).toBe("(11) 3333-4444");
    expect(maskServicePhone("119876543210")).toBe("(11) 9.8765-4321");
    expect(formatServicePhone("(11) 98765-4321")).toBe("(11) 9.8765-4321");
    expect(formatServicePhone("0800 123")).toBe("0800 123");
  });

  it("keep six digits for a code", () => {
    expect(maskCode("12a34567")).toBe("123456");
  });

  it("read currency digits as centavos", () => {
    expect(maskCurrencyBrl("")).toBe("");
    expect(maskCurrencyBrl("5")).toBe("R$ 0,05");
    expect(maskCurrencyBrl("123456")).toBe("R$ 1.234,56");
    expect(maskCurrencyBrl("R$ 0,50")).toBe("R$ 0,50");
  });

  it("unmask and convert dates for the API", () => {
    expect(digitsOf("(11) 98765-4321")).toBe("11987654321");
    expect(dateToApi("09/03/1990")).toBe("1990-03-09 00:00:00");
  });
});

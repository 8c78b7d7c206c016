import { describe, expect, it } from "vitest";
import { isCompleteCep, lookupCep } from "@/features/address/api/lookup-cep";
import { BRAZILIAN_STATES, isBrazilianState } from "@/lib/brazilian-states";
import { jsonResponse } from "@/testing/fixtures";
import { stubApi } from "@/testing/stub-api";

const LOOKUP = "POST /api/get-address-zip-code";
const PAULISTA = {
  cep: "01310-100",
  street: "Avenida Paulista",
  complement: "",
  neighborhood: "Bela Vista",
  city: "São Paulo",
  state: "SP",
  ibge: "3550308",
};

describe("lookupCep", () => {
  it("asks our API (never a third party) for the bare digits and reads street, neighbourhood, city and state", async () => {
    const api = stubApi({ [LOOKUP]: () => jsonResponse(PAULISTA) });

    await expect(lookupCep("01.310-100")).resolves.toEqual({
      street: "Avenida Paulista",
      neighborhood: "Bela Vista",
      city: "São Paulo",
      state: "SP",
    });
    expect(api.bodySentTo(LOOKUP)).toEqual({ zip_code: "01310100" });
    expect(api.calls.every((call) => call.url.startsWith("/api/"))).toBe(true);
  });

  it.each([
    ["an unknown CEP (404)", () => jsonResponse({ error: "CEP não encontrado" }, 404)],
    ["a malformed CEP (422)", () => jsonResponse({ messages: ["CEP inválido"] }, 422)],
    ["the provider down (503)", () => jsonResponse({ error: "Não foi possível consultar o CEP agora." }, 503)],
    ["no answer at all", () => Promise.reject(new TypeError("Failed to fetch"))],
  ])("answers null for %s", async (_case, answer) => {
    stubApi({ [LOOKUP]: answer });
    await expect(lookupCep("99999999")).resolves.toBeNull();
  });

  it("does not ask for fewer than eight digits", async () => {
    const api = stubApi({ [LOOKUP]: () => jsonResponse(PAULISTA) });
    await expect(lookupCep("0131010")).resolves.toBeNull();
    expect(api.callsTo(LOOKUP)).toHaveLength(0);
    expect(isCompleteCep("01.310-10")).toBe(false);
    expect(isCompleteCep("01.310-100")).toBe(true);
  });
});

describe("Brazilian states", () => {
  it("lists the 27 units once each, with IBGE ids and regions", () => {
    expect(BRAZILIAN_STATES).toHaveLength(27);
    expect(new Set(BRAZILIAN_STATES.map((state) => state.sigla)).size).toBe(27);
    expect(new Set(BRAZILIAN_STATES.map((state) => state.id)).size).toBe(27);
    expect(BRAZILIAN_STATES.find((state) => state.sigla === "SP")).toEqual({
      id: 35,
      sigla: "SP",
      nome: "São Paulo",
      region: "Sudeste",
    });
    expect(BRAZILIAN_STATES.filter((state) => state.region === "Nordeste")).toHaveLength(9);
    expect(isBrazilianState("DF")).toBe(true);
    expect(isBrazilianState("XX")).toBe(false);
  });
});

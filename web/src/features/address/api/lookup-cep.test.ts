import { describe, expect, it, vi } from "vitest";
import { isCompleteCep, lookupCep } from "@/features/address/api/lookup-cep";
import { BRAZILIAN_STATES, isBrazilianState } from "@/lib/brazilian-states";
import { jsonResponse } from "@/testing/fixtures";

function stubViaCep(answer: () => Response | Promise<Response>) {
  const fetchMock = vi.fn((_url: string) => Promise.resolve(answer()));
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

describe("lookupCep", () => {
  it("asks ViaCEP for the bare digits and reads street, neighbourhood, city and state", async () => {
    const fetchMock = stubViaCep(() =>
      jsonResponse({ cep: "01310-100", logradouro: "Avenida Paulista", bairro: "Bela Vista", localidade: "São Paulo", uf: "SP" }),
    );

    await expect(lookupCep("01.310-100")).resolves.toEqual({
      street: "Avenida Paulista",
      neighborhood: "Bela Vista",
      city: "São Paulo",
      state: "SP",
    });
    expect(fetchMock.mock.calls[0]?.[0]).toBe("https://viacep.com.br/ws/01310100/json/");
  });

  it.each([
    ["ViaCEP's erro answer", () => jsonResponse({ erro: true })],
    ["the older erro text", () => jsonResponse({ erro: "true" })],
    ["a 400 for a malformed CEP", () => jsonResponse({}, 400)],
    ["no answer at all", () => Promise.reject(new TypeError("Failed to fetch"))],
  ])("answers null for %s", async (_case, answer) => {
    stubViaCep(answer);
    await expect(lookupCep("99999999")).resolves.toBeNull();
  });

  it("does not ask for fewer than eight digits", async () => {
    const fetchMock = stubViaCep(() => jsonResponse({}));
    await expect(lookupCep("0131010")).resolves.toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
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

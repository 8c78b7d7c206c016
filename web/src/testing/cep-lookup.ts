// The server's CEP lookup (`POST /api/get-address-zip-code`) as component tests stub it: one
// handler for every CEP, answering by the digits sent.
import { jsonResponse } from "@/testing/fixtures";
import type { ApiHandler } from "@/testing/stub-api";
import type { ZipCodeAddress } from "@/types/api";

export const CEP_LOOKUP = "POST /api/get-address-zip-code";

/** The lookup's answer for an address. */
export function cepAddress(fields: Partial<ZipCodeAddress>): Response {
  return jsonResponse({ cep: "", street: "", complement: "", neighborhood: "", city: "", state: "", ibge: "", ...fields });
}

/** The lookup's answer for a CEP that does not exist. */
export function cepUnknown(): Response {
  return jsonResponse({ error: "CEP não encontrado" }, 404);
}

/** Avenida Paulista's CEP, 01310-100. */
export function paulista(): Response {
  return cepAddress({ cep: "01310-100", street: "Avenida Paulista", neighborhood: "Bela Vista", city: "São Paulo", state: "SP" });
}

/** One handler answering each CEP (its eight digits) its own way; another CEP fails the test. */
export function byCep(answers: Record<string, () => Response | Promise<Response>>): ApiHandler {
  return (body) => {
    const digits = (body as { zip_code?: string } | undefined)?.zip_code ?? "";
    const answer = answers[digits];
    return answer ? answer() : Promise.reject(new TypeError(`unexpected CEP ${digits}`));
  };
}

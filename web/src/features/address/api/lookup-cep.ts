// The address of a CEP, asked from the browser to ViaCEP (free, no key, CORS open); see
// docs/decisions.md. Only a CEP of eight digits is looked up.
import { useMutation } from "@tanstack/react-query";
import { digitsOf } from "@/lib/masks";
import { MESSAGES } from "@/lib/validators";

export const CEP_LOOKUP_URL = "https://viacep.com.br/ws/{cep}/json/";

export interface CepAddress {
  street: string;
  neighborhood: string;
  city: string;
  /** The state's sigla ("SP"). */
  state: string;
}

interface ViaCepAnswer {
  logradouro?: string;
  bairro?: string;
  localidade?: string;
  uf?: string;
  erro?: boolean | string;
}

/**
 * Rule for the street and city an address lookup fills: the "CEP inválido" an unknown CEP
 * writes there (spec 002's catalogue) is a mark, not an address, so it stays an error until
 * the member types real data.
 */
export function notCepMark(value: string): string | undefined {
  return value.trim() === MESSAGES.cep ? MESSAGES.cep : undefined;
}

/** Whether a CEP field holds the eight digits that start a lookup. */
export function isCompleteCep(value: string): boolean {
  return digitsOf(value).length === 8;
}

/** The address of `cep`, or null when the CEP does not exist (or no answer could be read). */
export async function lookupCep(cep: string, { signal }: { signal?: AbortSignal } = {}): Promise<CepAddress | null> {
  const digits = digitsOf(cep);
  if (digits.length !== 8) return null;
  let answer: ViaCepAnswer;
  try {
    const response = await fetch(CEP_LOOKUP_URL.replace("{cep}", digits), { signal });
    if (!response.ok) return null;
    answer = (await response.json()) as ViaCepAnswer;
  } catch (error) {
    if (signal?.aborted) throw error;
    return null;
  }
  // ViaCEP answers 200 {"erro": true} (older answers: "true") for a CEP that does not exist.
  if (answer.erro === true || answer.erro === "true" || !answer.localidade) return null;
  return {
    street: answer.logradouro ?? "",
    neighborhood: answer.bairro ?? "",
    city: answer.localidade,
    state: answer.uf ?? "",
  };
}

/**
 * Looks a CEP up and hands the address (or null for an unknown CEP) and the CEP asked to
 * `onResult`. A failed lookup is not the API's error, so it has no toast: the caller marks
 * the fields instead.
 */
export function useCepLookup(onResult: (address: CepAddress | null, cep: string) => void) {
  return useMutation({
    mutationFn: (cep: string) => lookupCep(cep),
    onSuccess: onResult,
  });
}

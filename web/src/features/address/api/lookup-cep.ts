// The address of a CEP, asked from our API (`POST /get-address-zip-code`), which looks it
// up at its provider and caches it: the browser calls no third party (docs/decisions.md).
// Only a CEP of eight digits is looked up.
import { useMutation } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import { digitsOf } from "@/lib/masks";
import { MESSAGES } from "@/lib/validators";
import type { ZipCodeAddress } from "@/types/api";

export const CEP_LOOKUP_PATH = "/get-address-zip-code";

export interface CepAddress {
  street: string;
  neighborhood: string;
  city: string;
  /** The state's sigla ("SP"). */
  state: string;
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

/**
 * The address of `cep`, or null when the lookup fails: an unknown CEP (404), one the server
 * cannot read (422), a provider that is down (503) or no answer at all. The form marks the
 * fields either way (spec 002: a failed lookup puts 'CEP inválido' in city and street).
 */
export async function lookupCep(cep: string, { signal }: { signal?: AbortSignal } = {}): Promise<CepAddress | null> {
  const digits = digitsOf(cep);
  if (digits.length !== 8) return null;
  let answer: ZipCodeAddress;
  try {
    answer = await api.post<ZipCodeAddress>(CEP_LOOKUP_PATH, { zip_code: digits }, { signal });
  } catch (error) {
    if (signal?.aborted) throw error;
    return null;
  }
  if (!answer.city) return null;
  return { street: answer.street, neighborhood: answer.neighborhood, city: answer.city, state: answer.state };
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

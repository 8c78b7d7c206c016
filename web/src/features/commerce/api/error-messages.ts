// The shop's refusals as the error catalogue reads them (spec 002 section 8): the server
// answers `{"messages": [...]}` (each shown on its own) or `{"error": "..."}`; a card
// tokeniser's refusal is its own message.
import { CardTokenizerError } from "@/features/commerce/api/card-tokenizer";
import { ApiError, INTERNAL_SERVER_ERROR_TEXT } from "@/lib/api-client";

function texts(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.filter((item): item is string => typeof item === "string" && item.trim() !== "");
}

/** Every message of a failed call, or the catalogue's 'Erro interno no servidor'. */
export function errorMessages(error: unknown): string[] {
  if (error instanceof CardTokenizerError) return [error.message];
  if (error instanceof ApiError) {
    const body = error.body;
    if (typeof body === "object" && body !== null && !Array.isArray(body)) {
      const { messages, error: single } = body as { messages?: unknown; error?: unknown };
      const list = texts(messages);
      if (list.length > 0) return list;
      if (typeof single === "string" && single.trim() !== "") return [single];
    }
    return [error.message];
  }
  return [INTERNAL_SERVER_ERROR_TEXT];
}

/** The server's own message, or null when it gave none a member can read (a 5xx, no answer). */
export function serverMessage(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.status >= 500 || error.status === 0) return null;
  const [first] = errorMessages(error);
  return first === undefined || first === INTERNAL_SERVER_ERROR_TEXT ? null : first;
}

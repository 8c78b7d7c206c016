// The texts of spec 002's error catalogue for plans and subscriptions, and how a failed
// call is told: 'Erro: {error}' when the answer has an error field, else each field's
// message, else 'Erro'; a cancellation says 'Erro: {first message}'.
import { CardTokenizerError } from "@/features/commerce";
import { ApiError } from "@/lib/api-client";

export const SUCCESS_TITLE = "Assinatura realizada";
export const SUCCESS_TEXT = "Operação realizada com sucesso";
export const ORDER_PLACED_TEXT = "Pedido realizado com sucesso!";
export const NOTHING_CHARGED_TEXT = "Você não será cobrado nenhum valor.";
export const PAY_TEXT = "Realizar pagamento";
export const CONTINUE_TEXT = "Continuar";
export const CANCEL_ANYTIME_TEXT =
  "A cobrança é recorrente e renovada automaticamente a cada período. Você pode cancelar a qualquer momento, sem multa.";
export const GENERIC_ERROR_TEXT = "Erro";
export const CANCEL_LIST_SUCCESS_TEXT = "Cancelamento de assinatura realizado com sucesso";
export const CANCEL_LIST_FAILURE_TEXT = "Erro ao cancelar assinatura";
export const NO_PRODUCT_TITLE = "Produto não selecionado";
export const NO_PRODUCT_TEXT = "Por favor, selecione o produto para realizar a assinatura.";
export const PRODUCT_UNAVAILABLE_TEXT = "Produto indisponível para assinatura no momento.";
export const NO_SUBSCRIPTIONS_TEXT = "Não há assinaturas";
export const CARD_SAVED_TITLE = "Sucesso";
export const CARD_SAVED_TEXT = "Cartão salvo com sucesso";

function bodyOf(error: unknown): Record<string, unknown> | null {
  if (!(error instanceof ApiError)) return null;
  const body = error.body;
  return typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : null;
}

function texts(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.filter((item): item is string => typeof item === "string" && item.trim() !== "");
}

/** What a failed purchase, change or card update tells, one snackbar per text. */
export function subscriptionErrorTexts(error: unknown): string[] {
  if (error instanceof CardTokenizerError) return [error.message];
  const body = bodyOf(error);
  if (body && typeof body.error === "string" && body.error.trim() !== "") return [`Erro: ${body.error}`];
  const fields = body ? texts(body.messages) : [];
  return fields.length > 0 ? fields : [GENERIC_ERROR_TEXT];
}

/** What a failed plan cancellation tells. */
export function cancelErrorText(error: unknown): string {
  const body = bodyOf(error);
  const [first] = body ? texts(body.messages) : [];
  if (first !== undefined) return `Erro: ${first}`;
  if (body && typeof body.error === "string" && body.error.trim() !== "") return `Erro: ${body.error}`;
  return GENERIC_ERROR_TEXT;
}

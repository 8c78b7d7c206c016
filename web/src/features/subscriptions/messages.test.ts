import { describe, expect, it } from "vitest";
import { CardTokenizerError } from "@/features/commerce";
import { cancelErrorText, subscriptionErrorTexts } from "@/features/subscriptions/messages";
import { ApiError } from "@/lib/api-client";

const refused = (body: unknown) => new ApiError(422, "x", { body });

describe("subscription errors", () => {
  it("says 'Erro: {error}' when the answer has an error field", () => {
    expect(subscriptionErrorTexts(refused({ error: "Cartão recusado" }))).toEqual(["Erro: Cartão recusado"]);
  });

  it("lists the field messages otherwise, else 'Erro'", () => {
    expect(subscriptionErrorTexts(refused({ messages: ["CPF inválido", "CEP inválido"] }))).toEqual(["CPF inválido", "CEP inválido"]);
    expect(subscriptionErrorTexts(refused(null))).toEqual(["Erro"]);
    expect(subscriptionErrorTexts(new Error("boom"))).toEqual(["Erro"]);
  });

  it("tells a tokeniser's refusal as itself", () => {
    expect(subscriptionErrorTexts(new CardTokenizerError("Dados do cartão inválidos."))).toEqual(["Dados do cartão inválidos."]);
  });

  it("says 'Erro: {first message}' for a cancellation", () => {
    expect(cancelErrorText(refused({ messages: ["Você não possui um plano.", "outra"] }))).toBe("Erro: Você não possui um plano.");
    expect(cancelErrorText(refused({}))).toBe("Erro");
  });
});

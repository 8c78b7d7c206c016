import { describe, expect, it } from "vitest";
import { foldText, matchesFolded } from "@/lib/search-text";

describe("foldText", () => {
  it("drops case and accents, ç included", () => {
    expect(foldText("Ação Única do CAMPEÃO")).toBe("acao unica do campeao");
  });
});

describe("matchesFolded", () => {
  it("matches a folded term in any of the texts, and a blank term always", () => {
    expect(matchesFolded("votacao", "Maratonista", "Campeão da Votação")).toBe(true);
    expect(matchesFolded("xyz", "Maratonista", "Campeão da Votação")).toBe(false);
    expect(matchesFolded("", "Maratonista")).toBe(true);
  });
});

// Searches of a member's lists ignore case and accents (spec 001 section 9): 'trofeu' finds 'Troféu'.

/** `text` lower-cased without its accents, for comparing what a member types with a name. */
export function foldText(text: string): string {
  // NFD splits 'é' into 'e' and a combining mark (\p{M}), which is then dropped.
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLocaleLowerCase("pt-BR");
}

/** Whether `term` (already folded) is in any of `texts`; a blank term matches everything. */
export function matchesFolded(term: string, ...texts: string[]): boolean {
  return term === "" || texts.some((text) => foldText(text).includes(term));
}

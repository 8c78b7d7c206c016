// The political-union pages' addresses (spec 002 route line 22).
export const POLITICAL_PATH = "/homepage/politico-sindical";
export const THEMES_PATH = `${POLITICAL_PATH}/temas`;
export const SUGGEST_PATH = `${THEMES_PATH}/sugerir`;

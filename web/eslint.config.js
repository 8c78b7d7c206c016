// ESLint (flat config): typescript-eslint's type-aware recommended rules, the rules of React
// hooks, and the feature boundaries: a feature is used by the app and by other features only
// through its `index.ts`, and its route table through its `routes.tsx` (apart, so the table
// every page loads does not pull in the components behind the barrel); its `testing/`
// helpers serve tests alone.
import { readdirSync } from "node:fs";
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import { defineConfig, globalIgnores } from "eslint/config";
import globals from "globals";
import tseslint from "typescript-eslint";

const FEATURES = readdirSync(new URL("./src/features", import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const TESTS = ["src/**/*.test.{ts,tsx}", "src/testing/**", "src/features/*/testing/**"];

const DEEP_IMPORT_MESSAGE =
  "Import another feature through its index.ts (@/features/<name>) or its route table (@/features/<name>/routes), not its internals.";

/**
 * Deep imports of other features are refused; `ownFeature` may reach its own files (and
 * not its own index.ts, an import cycle); tests may use any feature's `testing/` kit.
 */
function boundaries({ ownFeature, allowTestKits }) {
  const notOwn = ownFeature ? `(?!${ownFeature}/)` : "";
  const notTestKit = allowTestKits ? "(?!testing/)" : "";
  const patterns = [{ regex: `^@/features/${notOwn}[^/]+/(?!routes$)${notTestKit}`, message: DEEP_IMPORT_MESSAGE }];
  if (ownFeature) {
    patterns.push({
      regex: `^@/features/${ownFeature}$`,
      message: "Inside a feature, import its own files directly, not its index.ts.",
    });
  }
  if (!allowTestKits) patterns.push({ regex: "^\\.\\./", message: "Import through the @/ alias." });
  return { "no-restricted-imports": ["error", { patterns }] };
}

export default defineConfig([
  globalIgnores(["dist", "playwright-report", "test-results"]),
  {
    files: ["**/*.{ts,tsx}"],
    extends: [js.configs.recommended, tseslint.configs.recommendedTypeChecked, reactHooks.configs.flat.recommended],
    languageOptions: {
      globals: globals.browser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // `void promise` marks a promise left on purpose (navigation, fire-and-forget calls).
      "@typescript-eslint/no-floating-promises": ["error", { ignoreVoid: true }],
      // A leading underscore names a parameter a signature needs but the body does not use.
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_" }],
    },
  },
  {
    files: ["src/**/*.{ts,tsx}"],
    rules: boundaries({ ownFeature: null, allowTestKits: false }),
  },
  { files: TESTS, rules: boundaries({ ownFeature: null, allowTestKits: true }) },
  ...FEATURES.flatMap((feature) => [
    { files: [`src/features/${feature}/**/*.{ts,tsx}`], rules: boundaries({ ownFeature: feature, allowTestKits: false }) },
    {
      files: [`src/features/${feature}/**/*.test.{ts,tsx}`, `src/features/${feature}/testing/**`],
      rules: boundaries({ ownFeature: feature, allowTestKits: true }),
    },
  ]),
  {
    files: ["*.ts", "e2e/**/*.ts"],
    languageOptions: { globals: globals.node },
  },
  {
    files: ["**/*.{js,mjs}"],
    extends: [js.configs.recommended],
    languageOptions: { globals: globals.node },
  },
]);

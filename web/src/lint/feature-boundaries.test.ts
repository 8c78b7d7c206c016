// The import rule of eslint.config.js, checked on snippets: features meet only through
// their index.ts (and their route tables, routes.tsx), and a feature's testing/ kit serves
// tests alone.
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// ESLint finds eslint.config.js from the working directory: Vitest runs in web/.
const eslint = new ESLint({
  // Only the boundary rule: the type-aware rules need files that exist.
  overrideConfig: { languageOptions: { parserOptions: { projectService: false, project: null } } },
  ruleFilter: ({ ruleId }) => ruleId === "no-restricted-imports",
});

async function refusals(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath });
  return (result?.messages ?? []).map((message) => message.message);
}

// The first lint loads ESLint and its plugins: seconds on a busy machine.
describe("feature boundaries", { timeout: 30_000 }, () => {
  it("lets a feature use another through its index.ts", async () => {
    expect(await refusals("src/features/wallet/x.ts", 'import { useStation } from "@/features/stations";\n')).toEqual([]);
  });

  it("lets the app and other features take a feature's route table, and nothing else beside index.ts", async () => {
    expect(await refusals("src/app/x.tsx", 'import { opsRoutes } from "@/features/staff/routes";\n')).toEqual([]);
    expect(await refusals("src/features/member/x.ts", 'import { walletMemberRoutes } from "@/features/wallet/routes";\n')).toEqual([]);
    expect(await refusals("src/app/x.tsx", 'import { x } from "@/features/staff/routes-extra";\n')).toEqual([
      expect.stringContaining("through its index.ts"),
    ]);
  });

  it("refuses a feature reaching into another one's files", async () => {
    const found = await refusals(
      "src/features/wallet/x.ts",
      'import { useStation } from "@/features/stations/station-context";\n',
    );
    expect(found).toEqual([expect.stringContaining("through its index.ts")]);
  });

  it("lets a feature use its own files, but not its own index.ts", async () => {
    expect(await refusals("src/features/wallet/x.ts", 'import { walletKeys } from "@/features/wallet/api/wallet-keys";\n')).toEqual([]);
    expect(await refusals("src/features/wallet/x.ts", 'import { HeaderBalance } from "@/features/wallet";\n')).toEqual([
      expect.stringContaining("not its index.ts"),
    ]);
  });

  it("holds the app to the same index.ts", async () => {
    const found = await refusals("src/app/x.tsx", 'import { LoginPage } from "@/features/accounts/components/login-page";\n');
    expect(found).toEqual([expect.stringContaining("through its index.ts")]);
  });

  it("keeps testing/ kits to tests", async () => {
    const kit = 'import { stubTurnstile } from "@/features/captcha/testing/stub-turnstile";\n';
    expect(await refusals("src/features/accounts/x.ts", kit)).toEqual([expect.stringContaining("through its index.ts")]);
    expect(await refusals("src/features/accounts/x.test.ts", kit)).toEqual([]);
  });
});

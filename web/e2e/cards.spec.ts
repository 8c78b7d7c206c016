import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { fillNewCard } from "./card-form";
import { fetchHostStation } from "./demo-station";
import { signUpAndActivate } from "./signup-flow";

// 'Meios de pagamento' (issue 29): a member signed up for the test adds a card at
// /homepage/meios-de-pagamento/criar (tokenised in the browser by the payments sandbox), sees
// it listed as the default, and removes it; both pages pass axe (WCAG 2.1 AA).
const PATH = "/homepage/meios-de-pagamento";
const EMPTY = "Você ainda não possui meios de pagamento cadastrados. Cadastre um cartão para abastecer sua carteira de créditos com ele.";

async function expectNoAxeViolations(page: Page) {
  await page.waitForLoadState("networkidle");
  await expect(page.locator("[aria-busy=true]")).toHaveCount(0);
  const axe = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(axe.violations).toEqual([]);
}

test("a member adds a card, sees it listed and removes it", async ({ page, request }) => {
  test.setTimeout(120_000);
  const station = await fetchHostStation(request);
  await page.addInitScript(() => window.localStorage.setItem("filia.cookie-consent", new Date().toISOString()));
  const email = `cartoes-${Date.now()}@exemplo.com.br`;
  await signUpAndActivate(page, station, { name: "Pessoa Cartões", email, password: "Cartao123" });

  await page.goto(PATH);
  await expect(page.getByRole("heading", { level: 1, name: "Meios de pagamento" })).toBeVisible();
  await expect(page.getByText(EMPTY)).toBeVisible();
  await expectNoAxeViolations(page);

  // Card numbers never reach our API: only the sandbox's tokeniser sees them.
  const sentToApi: string[] = [];
  page.on("request", (sent) => {
    if (sent.url().includes("/api/") && !sent.url().includes("/api/sandbox/card-tokens")) sentToApi.push(sent.postData() ?? "");
  });
  await page.getByRole("link", { name: "Adicionar" }).click();
  await expect(page).toHaveURL(/\/homepage\/meios-de-pagamento\/criar$/);
  await expect(page.getByRole("heading", { level: 1, name: "Cadastrar novo cartão" })).toBeVisible();
  await expectNoAxeViolations(page);
  await fillNewCard(page, "5555 4444 3333 1111");
  await page.getByRole("button", { name: "Salvar cartão" }).click();
  await expect(page.getByText("Cartão salvo com sucesso")).toBeVisible();
  await expect(page).toHaveURL(/\/homepage\/meios-de-pagamento$/);
  expect(sentToApi.join("\n")).not.toContain("5555444433331111");

  const card = page.getByRole("listitem", { name: "Mastercard final 1111" });
  await expect(card).toContainText("•••• •••• •••• 1111");
  await expect(card).toContainText("Validade: 12/30");
  await expect(card).toContainText("Padrão");
  await expectNoAxeViolations(page);

  await card.getByRole("button", { name: "Remover" }).click();
  const dialog = page.getByRole("dialog", { name: "Remover cartão" });
  await expect(dialog).toContainText("Mastercard final 1111");
  await dialog.getByRole("button", { name: "Remover" }).click();
  await expect(card).toHaveCount(0);
  await expect(page.getByText(EMPTY)).toBeVisible();
  await page.reload();
  await expect(page.getByText(EMPTY)).toBeVisible();
});

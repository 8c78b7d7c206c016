import { expect, test, type Browser, type Page } from "@playwright/test";
import { fillNewCard } from "./card-form";
import { STAFF_EMAIL, STAFF_PASSWORD } from "./demo-staff";
import { fetchHostStation, type StationFlags } from "./demo-station";
import { mailsTo } from "./mailbox";
import { signUpAndActivate } from "./signup-flow";

// Renewals a month later (issue 28): two members buy the demo's monthly 'Essencial', one
// with a card that keeps paying, one with a sandbox card that pays its first charge only
// (last digits 0069). Support staff move the sandbox's clock, which every process shares
// (POST /api/sandbox/clock), a month on; the workers' dispatcher (every 3 s in ops/e2e)
// renews both. The first sees the renewal paid and its receipt; the second sees it unpaid
// with 'Novo cartão', and the new card pays it.
//
// Moving the clock is for every test after it too, so this file runs last (its own
// Playwright project, after the others: playwright.config.ts).
const PLAN = "Essencial";
const RECEIPT = "Pagamento da assinatura confirmado";
const DECLINED = "Pagamento da assinatura recusado";

async function memberWithPlan(browser: Browser, station: StationFlags, who: string, card: string): Promise<{ page: Page; email: string }> {
  const context = await browser.newContext();
  await context.addInitScript(() => window.localStorage.setItem("filia.cookie-consent", new Date().toISOString()));
  const page = await context.newPage();
  const email = `${who}-${Date.now()}@exemplo.com.br`;
  await signUpAndActivate(page, station, { name: "Pessoa Assinante", email, password: "Assina123" });
  await page.goto("/homepage/planos");
  await page.getByRole("article", { name: PLAN }).getByRole("link", { name: /Assinar/ }).click();
  await fillNewCard(page, card);
  await page.getByRole("button", { name: "Realizar pagamento" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Pedido realizado com sucesso!" })).toBeVisible({ timeout: 20_000 });
  return { page, email };
}

/** The 'Status pagamento' of each charge in 'Minhas assinaturas', newest first, read afresh. */
async function chargeStatuses(page: Page): Promise<string[]> {
  await page.goto("/homepage/assinaturas");
  const rows = page.getByRole("table", { name: "Cobranças" }).getByRole("row");
  await expect(rows.nth(1)).toBeVisible();
  const texts = await rows.allInnerTexts();
  return texts.slice(1).map((row) => (/Pago|Aguardando pagamento|Recusado|Cancelado/.exec(row) ?? ["?"])[0]);
}

test("a month later the renewal is charged with its receipt; a declined one asks for 'Novo cartão', which pays it", async ({ browser, request }) => {
  test.setTimeout(240_000);
  const station = await fetchHostStation(request);
  const payer = await memberWithPlan(browser, station, "renova", "4111 1111 1111 1111");
  const stopped = await memberWithPlan(browser, station, "recusa", "4000 0000 0000 0069");
  expect(await chargeStatuses(payer.page)).toEqual(["Pago"]);
  expect(await chargeStatuses(stopped.page)).toEqual(["Pago"]);

  const login = await request.post(`/api/auth/login/establishment/${station.id}`, {
    data: { email: STAFF_EMAIL, password: STAFF_PASSWORD },
  });
  expect(login.ok()).toBe(true);
  const { token } = (await login.json()) as { token: string };
  const moved = await request.post("/api/sandbox/clock", {
    headers: { Authorization: `Bearer ${token}` },
    data: { advance_days: 32 },
  });
  expect(moved.ok()).toBe(true);

  // The card that keeps paying: the renewal paid, and its receipt (the purchase's was the first).
  await expect.poll(async () => (await mailsTo({ to: payer.email, subject: RECEIPT })).length, { timeout: 90_000 }).toBe(2);
  await expect.poll(() => chargeStatuses(payer.page), { timeout: 30_000 }).toEqual(["Pago", "Pago"]);

  // The card that stopped paying: the member is told, and the charge waits for a new card.
  await expect.poll(async () => (await mailsTo({ to: stopped.email, subject: DECLINED })).length, { timeout: 90_000 }).toBe(1);
  const page = stopped.page;
  await expect.poll(() => chargeStatuses(page), { timeout: 30_000 }).toEqual(["Aguardando pagamento", "Pago"]);
  await page.getByRole("link", { name: "Novo cartão" }).click();
  await expect(page).toHaveURL(/\/homepage\/cartao-assinatura\?assinatura=\d+$/);
  await fillNewCard(page, "5555 4444 3333 1111");
  await page.getByRole("button", { name: "Salvar cartão" }).click();
  // The subscription takes the card, its unpaid charge is tried again at once.
  await expect(page).toHaveURL(/\/homepage\/assinaturas$/);
  await expect.poll(() => chargeStatuses(page), { timeout: 60_000 }).toEqual(["Pago", "Pago"]);
  await expect(page.getByRole("link", { name: "Novo cartão" })).toHaveCount(0);
  await expect.poll(async () => (await mailsTo({ to: stopped.email, subject: RECEIPT })).length, { timeout: 30_000 }).toBe(2);
});

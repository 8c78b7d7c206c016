import AxeBuilder from "@axe-core/playwright";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { earnedCents, logIn, memberApi, type Member } from "./demo-member";
import { STAFF_EMAIL, STAFF_PASSWORD } from "./demo-staff";
import { confirmAgeIfAsked, fetchHostStation, type StationFlags } from "./demo-station";

// Money into the wallet (issue 29) with the payments sandbox: the demo member tops up by PIX
// (paid with 'Simular pagamento'), by a new card kept for later and then by that saved card,
// and asks for a bank transfer (the demo station has bank details) that staff confirm in
// /ops/recargas. Each amount credits the wallet once.
const TOP_UP_PATH = "/homepage/meios-de-pagamento/comprar";
const STATEMENT_PATH = "/homepage/extrato/extratos-totais";
const WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
/** A Mastercard the sandbox approves; its saved card reads 'mastercard final 1111'. */
const NEW_CARD = "5555 4444 3333 1111";

async function expectAccessible(page: Page) {
  await expect(page.locator("[aria-busy=true]")).toHaveCount(0);
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_21_AA).analyze();
  expect(violations.map((violation) => ({ rule: violation.id, targets: violation.nodes.map((node) => node.target.join(" ")) }))).toEqual([]);
}

/** Waits until the member's wallet holds `cents` more than `before` (credits are jobs). */
async function expectCredited(request: APIRequestContext, member: Member, before: number, cents: number) {
  await expect.poll(() => earnedCents(request, member), { timeout: 20_000 }).toBe(before + cents);
}

async function openTopUp(page: Page, request: APIRequestContext): Promise<{ station: StationFlags; member: Member }> {
  const station = await fetchHostStation(request);
  const member = await memberApi(request, station);
  // The cookie notice, accepted beforehand, stays out of the way.
  await page.addInitScript(() => window.localStorage.setItem("filia.cookie-consent", new Date().toISOString()));
  await logIn(page, station);
  await page.goto(TOP_UP_PATH);
  await expect(page.getByRole("heading", { level: 1, name: "Comprar créditos" })).toBeVisible();
  await expect(page.getByRole("group", { name: "Forma de pagamento" })).toBeVisible();
  return { station, member };
}

test("the demo member tops up by PIX, pays with 'Simular pagamento' and sees the credit in the statement", async ({ page, request }) => {
  test.setTimeout(90_000);
  const { member } = await openTopUp(page, request);
  await expectAccessible(page);
  const before = await earnedCents(request, member);

  await page.getByRole("radio", { name: "PIX" }).check();
  await page.getByLabel("Quantidade em BRL").fill("1234");
  await expect(page.getByLabel("Quantidade em BRL")).toHaveValue("R$ 12,34");
  await page.getByRole("button", { name: "Fazer pedido" }).click();

  await expect(page.getByRole("heading", { name: "Pagamento com PIX" })).toBeVisible();
  await expect(page.getByLabel("Código PIX copia e cola")).toHaveValue(/^000201/);
  await expect(page.getByRole("status").filter({ hasText: "Aguardando a confirmação do pagamento." })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("button", { name: "Simular pagamento" }).click();

  // The page reads the top-up again by itself: no reload, no 'Verificar pagamento'.
  await expect(page.getByRole("heading", { name: "Operação realizada com sucesso" })).toBeVisible({ timeout: 20_000 });
  await expectCredited(request, member, before, 1234);
  await page.getByRole("link", { name: "Ver extrato" }).click();
  await expect(page).toHaveURL(new RegExp(`${STATEMENT_PATH}$`));
  await page.getByRole("tab", { name: "Créditos de Premiação" }).click();
  await expect(page.getByRole("tabpanel").getByText("Recarga de créditos por PIX").first()).toBeVisible();
});

test("the demo member buys points with a new card kept for later, then with that saved card", async ({ page, request }) => {
  test.setTimeout(90_000);
  const { member } = await openTopUp(page, request);
  const before = await earnedCents(request, member);
  // Card numbers never reach our API: only the sandbox's tokeniser sees them.
  const sentToApi: string[] = [];
  page.on("request", (sent) => {
    if (sent.url().includes("/api/") && !sent.url().includes("/api/sandbox/card-tokens")) sentToApi.push(sent.postData() ?? "");
  });

  await page.getByRole("radio", { name: "Cartão" }).check();
  await page.getByRole("combobox", { name: "Cartão" }).selectOption({ label: "Novo cartão" });
  await page.getByLabel("Quantidade em BRL").fill("2000");
  await page.getByLabel("Número do cartão").fill(NEW_CARD);
  await page.getByLabel("Nome impresso no cartão").fill("Maria Demo");
  await page.getByLabel("Validade (MM/AA)").fill("12/30");
  await page.getByLabel("CVV").fill("123");
  await page.getByLabel("CPF do titular").fill("529.982.247-25");
  await page.getByLabel("Salvar este cartão para as próximas compras").check();
  // The CEP first: its lookup writes the street and city (or 'CEP inválido'), then ours do.
  await page.getByLabel("CEP").fill("01310100");
  await expect(page.getByLabel("Rua")).not.toHaveValue("");
  await page.getByLabel("Rua").fill("Avenida Paulista");
  await page.getByLabel("Número", { exact: true }).fill("1000");
  await page.getByLabel("Estado").selectOption("SP");
  await page.getByLabel("Cidade").fill("São Paulo");
  await expectAccessible(page);
  await page.getByRole("button", { name: "Fazer pedido" }).click();

  await expect(page.getByText("Operação realizada com sucesso")).toBeVisible({ timeout: 20_000 });
  await expect(page).toHaveURL(new RegExp(`${STATEMENT_PATH}$`));
  await expectCredited(request, member, before, 2000);
  expect(sentToApi.join("\n")).not.toContain(NEW_CARD.replaceAll(" ", ""));
  expect(sentToApi.join("\n")).not.toContain(NEW_CARD);

  // The card was kept: the next top-up charges it by its id.
  await page.goto(TOP_UP_PATH);
  await page.getByRole("radio", { name: "Cartão" }).check();
  await page.getByRole("combobox", { name: "Cartão" }).selectOption({ label: "mastercard final 1111" });
  await page.getByLabel("Quantidade em BRL").fill("1500");
  const sent = page.waitForRequest((sentRequest) => sentRequest.url().endsWith("/api/user-buy-points-transaction"));
  await page.getByRole("button", { name: "Fazer pedido" }).click();
  const body = (await sent).postDataJSON() as { card_id?: number; card_token?: string };
  expect(body.card_id).toBeGreaterThan(0);
  expect(body.card_token).toBeUndefined();
  await expect(page).toHaveURL(new RegExp(`${STATEMENT_PATH}$`), { timeout: 20_000 });
  await expectCredited(request, member, before, 3500);
});

test("a transfer request waits as 'Aguardando confirmação' until staff confirm it in /ops/recargas", async ({ browser, page, request }) => {
  test.setTimeout(120_000);
  const { station, member } = await openTopUp(page, request);
  const before = await earnedCents(request, member);

  await page.getByRole("radio", { name: "Transferência" }).check();
  await expect(page.getByRole("region", { name: "Dados para transferência" })).toContainText("Banco do Brasil");
  await page.getByLabel("Quantidade em BRL").fill("1575");
  await page.getByRole("button", { name: "Fazer pedido" }).click();

  const dialog = page.getByRole("dialog", { name: "Pedido gerado" });
  await expect(dialog).toContainText("Você será informado por e-mail assim que o pagamento for confirmado.");
  await dialog.getByRole("button", { name: "Ver pedidos de transferência" }).click();
  const requests = page.getByRole("table", { name: "Pedidos de transferência" });
  await expect(requests.getByRole("row").nth(1)).toContainText("R$ 15,75");
  await expect(requests.getByRole("row").nth(1)).toContainText("Aguardando confirmação");
  await expectAccessible(page);

  const listed = await request.get(`/api/transfer-request/?where[user_id]=${member.id}`, { headers: member.headers });
  expect(listed.ok()).toBe(true);
  const [newest] = (await listed.json()) as Array<{ id: number; points: number }>;
  expect(newest?.points).toBe(15.75);
  const id = newest?.id ?? 0;
  // Nothing is credited before staff confirm.
  expect(await earnedCents(request, member)).toBe(before);

  // Staff confirm it in the console, in a browser of their own.
  const staff = await browser.newContext();
  const staffPage = await staff.newPage();
  await staffPage.addInitScript(() => window.localStorage.setItem("filia.cookie-consent", new Date().toISOString()));
  await staffPage.goto("/login");
  await confirmAgeIfAsked(staffPage, station);
  await staffPage.getByLabel("E-mail").fill(STAFF_EMAIL);
  await staffPage.getByLabel("Senha").fill(STAFF_PASSWORD);
  await staffPage.getByRole("button", { name: "Entrar" }).click();
  await expect(staffPage).toHaveURL(/\/homepage$/);
  await staffPage.goto(`/ops/recargas?station_id=${station.id}&method=transfer&status=pending`);
  await expect(staffPage.getByRole("heading", { level: 1, name: "Recargas" })).toBeVisible();
  await expectAccessible(staffPage);
  await staffPage.getByRole("button", { name: `Confirmar a recarga ${id}` }).click();
  const confirm = staffPage.getByRole("dialog", { name: `Confirmar a recarga ${id}?` });
  await expect(confirm).toContainText("Transferência de R$ 15,75 de Maria Demo.");
  await confirm.getByRole("button", { name: "Confirmar" }).click();
  await expect(staffPage.getByText("Recarga confirmada: os créditos entraram no saldo do membro.")).toBeVisible();

  await expectCredited(request, member, before, 1575);
  const after = await request.get(`/api/transfer-request/?where[user_id]=${member.id}`, { headers: member.headers });
  const confirmed = ((await after.json()) as Array<{ id: number; status: { name: string } }>).find((item) => item.id === id);
  expect(confirmed?.status.name).toBe("Confirmado");
  await staff.close();
});

import { readFile } from "node:fs/promises";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { logIn, MEMBER_EMAIL, memberApi, type Member } from "./demo-member";
import { fetchHostStation } from "./demo-station";

// The demo shop (domain/src/infra/demo/shop.rs) with the payments sandbox (FILIA_PAYMENTS's
// default): the workshop seat costs R$ 60,00 (80,00 less 20,00), more than the demo
// member's balance, so the wallet pays part and card or PIX the rest.
const WORKSHOP_ACTIVITY = "Oficina de educação financeira";
const WORKSHOP_PRODUCT = "Vaga na oficina de educação financeira";
const SEAT_CENTS = 6000;
/** The sandbox declines the cards ending 0028 (domain/src/infra/payments/sandbox.rs). */
const DECLINED_CARD = "4000 0000 0000 0028";



/** The workshop's activity id, found by name as the member's search finds it. */
async function workshopId(request: APIRequestContext, member: Member): Promise<number> {
  const found = await request.get(`/api/actions-by-name/?where[name]=${encodeURIComponent(WORKSHOP_ACTIVITY)}`, {
    headers: member.headers,
  });
  expect(found.ok()).toBe(true);
  const cards = (await found.json()) as Array<{ id: number; name: string }>;
  const workshop = cards.find((card) => card.name === WORKSHOP_ACTIVITY);
  expect(workshop).toBeDefined();
  return workshop?.id ?? 0;
}

/** Empties the member's cart (a test run before may have left lines). */
async function emptyCart(request: APIRequestContext, member: Member) {
  const cart = await request.get("/api/user-shopping-cart", { headers: member.headers });
  expect(cart.ok()).toBe(true);
  for (const line of (await cart.json()) as Array<{ product_id: number }>) {
    const removed = await request.delete(`/api/remove-product-from-shopping-cart/${line.product_id}`, { headers: member.headers });
    expect(removed.ok()).toBe(true);
  }
}

/** The member's spendable balance, in centavos. */
async function balanceCents(request: APIRequestContext, member: Member): Promise<number> {
  const balance = await request.get(`/api/users-points/${member.id}`, { headers: member.headers });
  expect(balance.ok()).toBe(true);
  return ((await balance.json()) as { points_cents: number }).points_cents;
}

const brl = (cents: number) => `R$ ${(cents / 100).toFixed(2).replace(".", ",")}`;

/** Puts one workshop seat in the cart and opens the cart's payment step. */
async function toPaymentStep(page: Page, request: APIRequestContext): Promise<Member> {
  const station = await fetchHostStation(request);
  const member = await memberApi(request, station);
  const actionId = await workshopId(request, member);
  await emptyCart(request, member);
  // The cookie notice, accepted beforehand, stays out of the way.
  await page.addInitScript(() => window.localStorage.setItem("filia.cookie-consent", new Date().toISOString()));
  await logIn(page, station);

  await page.goto(`/homepage/shopping/${actionId}`);
  await page.getByRole("button", { name: `Adicionar ${WORKSHOP_PRODUCT} ao carrinho` }).click();
  await page.getByRole("link", { name: "Ir para o carrinho" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Meu carrinho" })).toBeVisible();
  await expect(page.getByRole("heading", { name: WORKSHOP_PRODUCT })).toBeVisible();
  await page.getByRole("button", { name: "Ir para entrega" }).click();
  // A digital product: no delivery step; the balance does not cover the seat.
  await expect(page.getByRole("heading", { level: 1, name: /^(Saldo e cartão|Forma da pagamento)$/ })).toBeVisible();
  return member;
}

test("the demo member buys a workshop seat with wallet and PIX, simulates the payment and downloads the voucher", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const member = await toPaymentStep(page, request);
  // The demo member's balance (R$ 30,00 on a fresh seed) pays part of the R$ 60,00.
  const balance = await balanceCents(request, member);
  expect(balance).toBeGreaterThan(0);
  expect(balance).toBeLessThan(SEAT_CENTS);
  await expect(page.getByRole("heading", { level: 1, name: "Saldo e cartão" })).toBeVisible();
  await expect(page.getByText("Pago com saldo").locator("xpath=following-sibling::dd[1]")).toHaveText(brl(balance));
  await expect(page.getByText("Valor a pagar").locator("xpath=following-sibling::dd[1]")).toHaveText(brl(SEAT_CENTS - balance));

  await page.getByRole("radio", { name: "PIX" }).check();
  await page.getByRole("button", { name: "Revisar pedido" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Confira seu pedido" })).toBeVisible();
  await page.getByRole("button", { name: "Gerar código para pagamento" }).click();

  await expect(page.getByRole("heading", { level: 1, name: "Finalize o pagamento" })).toBeVisible();
  await expect(page.getByLabel("Código PIX copia e cola")).toHaveValue(/^000201/);
  await page.getByRole("button", { name: "Simular pagamento" }).click();

  // The PIX screen reads the order again by itself: no reload, no 'Verificar pagamento'.
  await expect(page.getByRole("heading", { level: 1, name: "Pedido realizado com sucesso!" })).toBeVisible({
    timeout: 20_000,
  });

  // The order page makes the vouchers of a paid order.
  await page.getByRole("link", { name: "Ver comprovante do pedido e Gerar voucher" }).click();
  await expect(page).toHaveURL(/\/homepage\/pedidos\/\d+$/);
  await expect(page.getByText("Pagamento confirmado").first()).toBeVisible();

  await page.goto("/homepage/vouchers");
  await page.getByRole("button", { name: new RegExp(WORKSHOP_ACTIVITY) }).first().click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  const downloading = page.waitForEvent("download", { timeout: 45_000 });
  await dialog.getByRole("button", { name: "Baixar PDF" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^voucher-.+\.pdf$/);
  const file = await readFile(await download.path());
  expect(file.subarray(0, 4).toString("latin1")).toBe("%PDF");
});

test("a declined card shows the reason, 'Sim' goes back to the payment step, and PIX then pays", async ({ page, request }) => {
  test.setTimeout(60_000);
  await toPaymentStep(page, request);

  await page.getByRole("radio", { name: "Cartão de crédito" }).check();
  // The demo member has a saved card (it pays the plan), the default: this is a new one.
  await page.getByLabel("Cartão", { exact: true }).selectOption({ label: "Novo cartão" });
  // The workshop allows installments: the server's options, one of them required.
  await expect(page.getByLabel("Parcelas").getByRole("option", { name: /^12x de R\$/ })).toBeAttached();
  await page.getByLabel("Parcelas").selectOption("2");
  await page.getByLabel("Número do cartão").fill(DECLINED_CARD);
  await page.getByLabel("Nome impresso no cartão").fill("Membro Demo");
  await page.getByLabel("Validade (MM/AA)").fill("12/30");
  await page.getByLabel("CVV").fill("123");
  await page.getByLabel("CPF do titular").fill("529.982.247-25");
  await page.getByLabel("Data de nascimento").fill("09/03/1990");
  await page.getByLabel("E-mail").fill(MEMBER_EMAIL);
  await page.getByLabel("Telefone").fill("11987654321");
  // The CEP first: its lookup writes the street and city (or 'CEP inválido'), then ours do.
  await page.getByLabel("CEP").fill("01310100");
  await expect(page.getByLabel("Rua")).not.toHaveValue("");
  await page.getByLabel("Cidade").fill("São Paulo");
  await page.getByLabel("Estado").selectOption("SP");
  await page.getByLabel("Rua").fill("Avenida Paulista");
  await page.getByLabel("Número", { exact: true }).fill("1000");
  await page.getByRole("button", { name: "Revisar pedido" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Confira seu pedido" })).toBeVisible();

  const sent = page.waitForRequest((request) => request.url().endsWith("/api/cupom-product-order-cart"));
  await page.getByRole("button", { name: "Efetuar pagamento" }).click();
  // The order carries the sandbox's token, never the card's number.
  const body = (await sent).postData() ?? "";
  expect(JSON.parse(body)).toMatchObject({ payment: { type: "credit_card", selected_card: 0, installments: 2 } });
  expect(body).toContain("card_token");
  expect(body).not.toContain("0028");

  const dialog = page.getByRole("dialog", { name: "Pagamento não realizado" });
  await expect(dialog).toBeVisible();
  // The sandbox's decline reason, as the provider words it.
  await expect(dialog).toContainText(/Motivo: \S.+/);
  await dialog.getByRole("button", { name: "Sim" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("heading", { level: 1, name: /^(Saldo e cartão|Forma da pagamento)$/ })).toBeVisible();

  // The declined order released its hold; 'Sim' held the cart again, so another way to pay
  // goes through.
  await page.getByRole("radio", { name: "PIX" }).check();
  await page.getByRole("button", { name: "Revisar pedido" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Confira seu pedido" })).toBeVisible();
  await page.getByRole("button", { name: "Gerar código para pagamento" }).click();
  await expect(page.getByRole("button", { name: "Verificar pagamento" })).toBeVisible();
});

test("a reservation that runs out sends the member back to the cart with 'Tempo de reserva esgotado'", async ({
  page,
  request,
}) => {
  // The e2e platform holds a cart for 30 s (FILIA_HOLD_SECONDS in ops/lib.sh).
  test.setTimeout(120_000);
  // The hold the page makes ('Ir para entrega'; step 0 only previews the totals).
  const holds: Array<{ checkout_id: number; reserveTime: number }> = [];
  page.on("response", (response) => {
    if (response.url().endsWith("/api/single-product-orders") && response.request().method() === "POST") {
      void response.json().then((body: { checkout_id: number; reserveTime: number }) => holds.push(body));
    }
  });
  const member = await toPaymentStep(page, request);
  await expect.poll(() => holds.length).toBe(1);
  const hold = holds[holds.length - 1];
  expect(hold.reserveTime).toBeLessThanOrEqual(30);
  await expect(page.getByText("Tempo de reserva")).toBeVisible();

  await expect(page.getByRole("region", { name: "Notificações" }).getByText("Tempo de reserva esgotado")).toBeVisible({
    timeout: 60_000,
  });
  await expect(page.getByRole("heading", { level: 1, name: "Meu carrinho" })).toBeVisible();

  // The server agrees: that hold can no longer be ordered.
  const late = await request.post("/api/cupom-product-order-cart", {
    headers: member.headers,
    data: { user_id: member.id, checkout_id: hold.checkout_id, cart: [], isOnlyPayment: false, payment: { type: "pix" } },
  });
  expect(late.status()).toBe(422);
  expect(await late.json()).toEqual({
    messages: ["O tempo limite de reserva de produto para compra se esgotou. Por favor, comece novamente."],
  });
});

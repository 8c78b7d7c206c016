import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { confirmAgeIfAsked, fetchHostStation, type StationFlags } from "./demo-station";

// The partner's counter (domain/src/infra/demo/counter.rs): the demo partner's staff open
// the receipt of Ana's paid mug order, hand its line over once, and a second counter that
// had the same page open is refused.
const COUNTER_EMAIL = "balcao@demo.filia.com.br";
const COUNTER_PASSWORD = "Balcao123";
const COUNTER_NAME = "Paulo Balcão";
const ANA_EMAIL = "ana@demo.filia.com.br";
const ANA_PASSWORD = "Vizinha123";
const PRODUCT = "Caneca de cerâmica";

async function logInAsCounter(page: Page, station: StationFlags) {
  await page.addInitScript(() => window.localStorage.setItem("filia.cookie-consent", new Date().toISOString()));
  await page.goto("/login");
  await confirmAgeIfAsked(page, station);
  await page.getByLabel("E-mail").fill(COUNTER_EMAIL);
  await page.getByLabel("Senha").fill(COUNTER_PASSWORD);
  await page.getByRole("button", { name: "Entrar" }).click();
  await expect(page).toHaveURL(/\/homepage$/);
}

async function expectNoAxeViolations(page: Page) {
  const axe = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(axe.violations).toEqual([]);
}

test("the partner's staff hand a receipt's line over once; a second press is refused", async ({ page, request }) => {
  const station = await fetchHostStation(request);
  // The code of Ana's order, as her own orders list gives it.
  const login = await request.post(`/api/auth/login/establishment/${station.id}`, {
    data: { email: ANA_EMAIL, password: ANA_PASSWORD },
  });
  expect(login.ok()).toBe(true);
  const { token, user } = (await login.json()) as { token: string; user: { id: number } };
  const orders = await request.get(`/api/product-orders-user/${user.id}`, { headers: { Authorization: `Bearer ${token}` } });
  expect(orders.ok()).toBe(true);
  const list = (await orders.json()) as Array<{ code: string; status_code: string }>;
  const paid = list.find((order) => order.status_code === "paid");
  expect(paid).toBeDefined();
  const path = `/validador/pedido/${paid?.code ?? ""}`;

  await logInAsCounter(page, station);
  await page.goto(path);
  await expect(page.getByRole("heading", { level: 1, name: "Conferência de pedido" })).toBeVisible();
  const products = page.getByRole("list", { name: "Produtos" });
  await expect(products).toContainText(`1 x ${PRODUCT}`);
  const handOver = products.getByRole("button", { name: "Entregar" });
  await expect(handOver).toBeVisible();
  await expectNoAxeViolations(page);

  // A second counter has the same receipt open.
  const second = await page.context().newPage();
  await second.goto(path);
  const secondButton = second.getByRole("list", { name: "Produtos" }).getByRole("button", { name: "Entregar" });
  await expect(secondButton).toBeVisible();

  // By keyboard: focus the button and press Enter.
  await handOver.focus();
  await page.keyboard.press("Enter");
  const handed = products.getByRole("status");
  await expect(handed).toHaveText(new RegExp(`^Entregue em \\d\\d/\\d\\d/\\d{4} \\d\\d:\\d\\d:\\d\\d por ${COUNTER_NAME}$`));
  await expect(handOver).toBeHidden();
  await expectNoAxeViolations(page);

  // The second press is refused, and that page then says who handed it over and when.
  await secondButton.click();
  const secondList = second.getByRole("list", { name: "Produtos" });
  await expect(secondList.getByRole("alert")).toHaveText("Este item já foi entregue.");
  await expect(secondList.getByRole("status")).toHaveText(new RegExp(`por ${COUNTER_NAME}$`));
  await expect(secondButton).toBeHidden();
  await expectNoAxeViolations(second);
});

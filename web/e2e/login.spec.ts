import { expect, test, type Page } from "@playwright/test";
import { confirmAgeIfAsked, fetchHostStation } from "./demo-station";

const MEMBER_EMAIL = "membro@demo.filia.com.br";
const MEMBER_PASSWORD = "Membro123";

async function openLogin(page: Page, station: Awaited<ReturnType<typeof fetchHostStation>>) {
  await page.goto("/login");
  await confirmAgeIfAsked(page, station);
  await expect(page.getByRole("heading", { name: "Acesse a sua conta" })).toBeVisible();
}

// The right password runs first: it clears the account's failure count, so the wrong one
// below never adds up to the throttle across runs.
test("the demo member logs in and reaches /homepage", async ({ page, request }) => {
  const station = await fetchHostStation(request);
  await openLogin(page, station);

  const submit = page.getByRole("button", { name: "Entrar" });
  await expect(submit).toBeDisabled();
  await page.getByLabel("E-mail").fill(MEMBER_EMAIL);
  await page.getByLabel("Senha").fill(MEMBER_PASSWORD);
  await submit.click();

  await expect(page).toHaveURL(/\/homepage$/);
  // The member area's home, with the member's balance in its top bar.
  await expect(page.getByRole("heading", { level: 1, name: "Início" })).toBeAttached();
  await expect(page.getByRole("link", { name: /^Saldo / })).toBeVisible();

  // Signed in, the login page has nothing to offer.
  await page.goto("/login");
  await expect(page).toHaveURL(/\/homepage$/);
});

test("'Sair' revokes the session on the server: its token no longer opens anything", async ({ page, request }) => {
  const station = await fetchHostStation(request);
  await openLogin(page, station);
  await page.getByLabel("E-mail").fill(MEMBER_EMAIL);
  await page.getByLabel("Senha").fill(MEMBER_PASSWORD);
  await page.getByRole("button", { name: "Entrar" }).click();
  await expect(page.getByRole("link", { name: /^Saldo / })).toBeVisible();
  const storedToken = () => (JSON.parse(localStorage.getItem("filia.session") ?? "{}") as { token?: string }).token;
  const token = await page.evaluate(storedToken);
  expect(token).toBeTruthy();

  await page.getByRole("link", { name: "Sair" }).click();

  await expect(page.getByRole("link", { name: "Entrar", exact: true })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem("filia.session"))).toBeNull();
  const check = await request.get("/api/auth/validate-token", { headers: { Authorization: `Bearer ${token}` } });
  expect(await check.json()).toEqual({ valid: false, user: null });
});

test("a wrong password shows the server's message", async ({ page, request }) => {
  const station = await fetchHostStation(request);
  await openLogin(page, station);

  await page.getByLabel("E-mail").fill(MEMBER_EMAIL);
  await page.getByLabel("Senha").fill("SenhaErrada1");
  await page.getByRole("button", { name: "Entrar" }).click();

  const notifications = page.getByRole("region", { name: "Notificações" });
  await expect(notifications.getByText("E-mail, CPF ou senha incorretos.")).toBeVisible();
  await expect(notifications.getByText("Erro", { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});

import { expect, test } from "@playwright/test";
import { fetchHostStation } from "./demo-station";

const BLOCKED_EMAIL = "bloqueado@demo.filia.com.br";
const BLOCKED_PASSWORD = "Bloqueado123";
const BLOCKED_TEXT = "O seu acesso está supenso...";

test("a suspended member cannot get past the blocked notice; 'Fale conosco' signs out and opens /suporte", async ({
  page,
  request,
}) => {
  const station = await fetchHostStation(request);
  const login = await request.post(`/api/auth/login/establishment/${station.id}`, {
    data: { email: BLOCKED_EMAIL, password: BLOCKED_PASSWORD },
  });
  expect(login.ok()).toBe(true);
  const session = (await login.json()) as { user: { deletedAt: string | null }; token: string };
  expect(session.user.deletedAt, "the demo seed suspends this member").not.toBeNull();

  // Sign in the way the app does (the session in local storage), with the cookie notice
  // already answered so the blocked notice is the only dialog.
  await page.goto("/not-autorized");
  await page.evaluate((stored) => {
    window.localStorage.setItem("filia.session", JSON.stringify(stored));
    window.localStorage.setItem("filia.cookie-consent", new Date().toISOString());
  }, session);
  await page.goto("/homepage");

  const modal = page.getByRole("dialog", { name: BLOCKED_TEXT });
  await expect(modal).toBeVisible();
  await expect(modal.getByRole("button")).toHaveCount(0);

  await page.keyboard.press("Escape");
  await expect(modal).toBeVisible();
  await page.mouse.click(5, 5);
  await expect(modal).toBeVisible();

  await modal.getByRole("link", { name: "Fale conosco" }).click();

  await expect(page).toHaveURL(/\/suporte$/);
  await expect(modal).toBeHidden();
  expect(await page.evaluate(() => window.localStorage.getItem("filia.session"))).toBeNull();
  // The token was revoked on the server too.
  await expect
    .poll(async () => {
      const answer = await request.get("/api/auth/validate-token", {
        headers: { Authorization: `Bearer ${session.token}` },
      });
      return ((await answer.json()) as { valid: boolean }).valid;
    })
    .toBe(false);
});

import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { logIn } from "./demo-member";
import { STAFF_EMAIL, STAFF_PASSWORD } from "./demo-staff";
import { fetchHostStation } from "./demo-station";

// The browser tests run the payments sandbox (ops/lib.sh): GET /api/config says
// test_environment, and every page says "Ambiente de testes" above itself.

const TEXT = "Ambiente de testes Os pagamentos são simulados e nada é cobrado de verdade.";

const banner = (page: Page) => page.getByRole("complementary", { name: "Ambiente de testes" });

/** The banner is there once, first in the page, in its flow, covering nothing, and passes axe (WCAG 2.1 AA). */
async function expectBanner(page: Page) {
  await expect(banner(page)).toHaveCount(1);
  await expect(banner(page)).toHaveText(TEXT);
  const layout = await banner(page).evaluate((element) => {
    const box = element.getBoundingClientRect();
    const next = element.nextElementSibling?.getBoundingClientRect();
    return {
      position: getComputedStyle(element).position,
      top: box.top + window.scrollY,
      bottom: box.bottom,
      nextTop: next?.top ?? null,
      live: element.closest("[aria-live], [role=status], [role=alert]") !== null,
    };
  });
  expect(layout.position).toBe("static");
  expect(layout.top).toBe(0);
  // What the route renders starts below it.
  expect(layout.nextTop).not.toBeNull();
  expect(layout.nextTop ?? 0).toBeGreaterThanOrEqual(layout.bottom - 0.5);
  // Read where it stands, not announced again whenever something changes.
  expect(layout.live).toBe(false);
  const axe = await new AxeBuilder({ page })
    .include(".test-environment-banner")
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .analyze();
  expect(axe.violations).toEqual([]);
}

test("every page says it is a test environment, once, covering nothing", async ({ page, request }) => {
  const config = (await (await request.get("/api/config")).json()) as { test_environment: boolean };
  expect(config.test_environment).toBe(true);
  const station = await fetchHostStation(request);

  // The member area; the banner stays the same element across the app's own navigations.
  await logIn(page, station);
  await expectBanner(page);
  const first = await banner(page).elementHandle();
  await page.getByRole("navigation", { name: "Conta" }).getByRole("link", { name: "Perfil" }).click();
  await expect(page).toHaveURL(/\/homepage\/perfil$/);
  await expectBanner(page);
  expect(await first?.evaluate((element) => element.isConnected)).toBe(true);

  // A public page, once signed out.
  await page.goto("/logout");
  await expect(page).not.toHaveURL(/\/(homepage|logout)/);
  await page.goto("/login");
  await expect(page.getByRole("button", { name: "Entrar" })).toBeVisible();
  await expectBanner(page);

  // The support console.
  await page.getByLabel("E-mail").fill(STAFF_EMAIL);
  await page.getByLabel("Senha").fill(STAFF_PASSWORD);
  await page.getByRole("button", { name: "Entrar" }).click();
  await expect(page).toHaveURL(/\/homepage$/);
  await page.goto("/ops");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expectBanner(page);
});

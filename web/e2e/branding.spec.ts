import { expect, test } from "@playwright/test";
import { DEMO_MAIN_COLOR_RGB, DEMO_STATION_NAME } from "./demo-station";

test("the app wears the station's name and main colour", async ({ page }) => {
  await page.goto("/");

  await expect(page.getByRole("heading", { level: 1, name: DEMO_STATION_NAME })).toBeVisible();
  await expect(page).toHaveTitle(DEMO_STATION_NAME);

  const brandMain = await page.evaluate(() =>
    getComputedStyle(document.documentElement).getPropertyValue("--brand-main").trim().toLowerCase(),
  );
  expect(brandMain).toBe("#0e7c66");
  await expect(page.getByRole("link", { name: "Cadastre-se", exact: true })).toHaveCSS("background-color", DEMO_MAIN_COLOR_RGB);
});

import { expect, test, type Page } from "@playwright/test";
import { logIn } from "./demo-member";
import { fetchHostStation } from "./demo-station";

// Every link the demo station's menus show opens a page: the side menu (by station flags)
// and the top bar's account menu, walked as a member clicks them. (The same walk for a
// station with every flag on is app/menu-walk.test.tsx.)

/** The member area's links the menus show now, in order, without repeats. */
async function menuLinks(page: Page): Promise<string[]> {
  await page.getByRole("button", { name: "Menu", exact: true }).click();
  const drawer = page.getByRole("navigation", { name: "Menu principal" });
  await expect(drawer).toBeVisible();
  const hrefs = await page
    .locator("nav a[href^='/homepage']")
    .evaluateAll((links) => links.map((link) => link.getAttribute("href") ?? ""));
  await drawer.getByRole("button", { name: "Fechar menu" }).click();
  return [...new Set(hrefs)];
}

test("every link of the demo station's menus opens a page", async ({ page, request }) => {
  test.setTimeout(120_000);
  const station = await fetchHostStation(request);
  await logIn(page, station);
  const links = await menuLinks(page);
  expect(links.length).toBeGreaterThan(8);
  for (const href of links) {
    await page.goto(href);
    await page.waitForLoadState("networkidle");
    await expect(page.getByRole("heading", { level: 1 }).first(), href).toBeVisible();
    await expect(page.getByRole("heading", { name: "Página não encontrada" }), href).toHaveCount(0);
  }
});

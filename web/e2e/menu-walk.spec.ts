import { expect, test, type Page } from "@playwright/test";
import { logIn } from "./demo-member";
import { fetchHostStation, FULL_STATION, FULL_STATION_NAME, FULL_STATION_URL } from "./demo-station";

// Every link the demo station's menus show opens a page: the side menu (by station flags)
// and the top bar's account menu, walked as a member clicks them. The demo seeds a second
// station with every member-visible flag on (seed::demo::full_station), served at its own
// subdomain: Chromium sends every *.localhost name to this machine, so the same server
// answers it as that station. Its menus, the home's shortcut tiles and /homepage/search are
// walked too. (The same walk without a server is features/member/components/menu-walk.test.tsx.)

/** The member area's links the menus show now, in order, without repeats. */
async function menuLinks(page: Page): Promise<string[]> {
  // The cookie notice covers the foot of the page: answered first.
  const accept = page.getByRole("button", { name: "Aceito", exact: true });
  if (await accept.isVisible()) await accept.click();
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

async function walk(page: Page, links: string[]) {
  for (const href of links) {
    await page.goto(href);
    await page.waitForLoadState("networkidle");
    await expect(page.getByRole("heading", { level: 1 }), href).toHaveCount(1);
    await expect(page.getByRole("heading", { level: 1 }), href).toBeVisible();
    await expect(page.getByRole("heading", { name: "Página não encontrada" }), href).toHaveCount(0);
  }
}

test.describe("the station with every flag on", () => {
  test.use({ baseURL: FULL_STATION_URL });

  test("every link of its menus, its home's tiles and the search page open a page with one h1", async ({ page }) => {
    test.setTimeout(180_000);
    await logIn(page, FULL_STATION);
    await expect(page.getByRole("img", { name: FULL_STATION_NAME }).first()).toBeVisible();

    const tiles = page.getByRole("navigation", { name: "Atalhos" });
    await expect(tiles).toBeVisible();
    const tileLinks = await tiles
      .getByRole("link")
      .evaluateAll((links) => links.map((link) => link.getAttribute("href") ?? ""));
    expect(tileLinks).toContain("/homepage/prestacao-de-contas");

    const links = await menuLinks(page);
    for (const expected of [
      "/homepage/feed",
      "/homepage/calendario",
      "/homepage/downloads",
      "/homepage/carrinho",
      "/homepage/numeros-da-sorte",
      "/homepage/carteirinha",
      "/homepage/planos",
      "/homepage/perfil",
      "/homepage/extrato/extratos-totais",
      "/homepage/legisclub-gasolina",
      "/homepage/support",
    ]) {
      expect(links, expected).toContain(expected);
    }
    await walk(page, [...new Set([...links, ...tileLinks, "/homepage/search"])]);

    // The plans page carries the Enterprise card, to the enterprise form.
    await page.goto("/homepage/planos");
    await expect(page.getByRole("link", { name: "Entrar em contato: Enterprise" })).toHaveAttribute(
      "href",
      "/homepage/planos/sobconsulta",
    );
  });
});

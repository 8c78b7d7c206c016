import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { confirmAgeIfAsked, fetchHostStation } from "./demo-station";

// The promotional sign-up's state and city on the demo station, shown as a promotional one
// (the station's answer patched in the browser). The browser tests' cities provider
// (FILIA_IBGE_URL) is out of reach, so the real API answers 503 and the city is typed; the
// list itself is answered here as our API would answer it. Both states pass axe.

const WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

async function openPromotionalSignUp(page: Page, stationFlags: Awaited<ReturnType<typeof fetchHostStation>>) {
  await page.route(/\/api\/stations\/\d+$/, async (route) => {
    const response = await route.fetch();
    const station = (await response.json()) as Record<string, unknown>;
    await route.fulfill({ response, json: { ...station, promotional: true } });
  });
  await page.goto("/cadastrar");
  await confirmAgeIfAsked(page, stationFlags);
  await page.getByRole("dialog", { name: "Aviso de cookies" }).getByRole("button", { name: "Aceito" }).click();
  await expect(page.getByRole("checkbox", { name: "Li e aceito o regulamento da promoção." })).toBeVisible();
}

async function expectNoViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_21_AA).analyze();
  expect(violations.map((violation) => violation.id)).toEqual([]);
}

test("a state's cities are offered once chosen", async ({ page, request }) => {
  const station = await fetchHostStation(request);
  await page.route("**/api/states/RJ/cities", (route) =>
    route.fulfill({
      json: [
        { name: "Niterói", ibge: "3303302" },
        { name: "Paraty", ibge: "3303807" },
        { name: "Rio de Janeiro", ibge: "3304557" },
      ],
    }),
  );
  await openPromotionalSignUp(page, station);

  const city = page.getByRole("combobox", { name: "Cidade" });
  await expect(city).toBeDisabled();
  await page.getByLabel("Estado").selectOption("RJ");
  await expect(city).toBeEnabled();
  await expect(city.getByRole("option")).toHaveText(["Selecione", "Niterói", "Paraty", "Rio de Janeiro"]);
  // The keyboard chooses as in any select.
  await city.focus();
  await city.selectOption("Paraty");
  await expect(city).toHaveValue("Paraty");
  await expectNoViolations(page);
});

test("the city is typed when the cities cannot be loaded", async ({ page, request }) => {
  const station = await fetchHostStation(request);
  const answered = page.waitForResponse((response) => response.url().endsWith("/api/states/SP/cities"));
  await openPromotionalSignUp(page, station);

  await page.getByLabel("Estado").selectOption("SP");
  expect((await answered).status()).toBe(503);
  const city = page.getByRole("textbox", { name: "Cidade" });
  await expect(city).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Digite o nome da sua cidade." })).toBeVisible();
  await city.fill("Campinas");
  await expect(city).toHaveValue("Campinas");
  await expect(page.getByText("Erro", { exact: true })).toHaveCount(0);
  await expectNoViolations(page);
});

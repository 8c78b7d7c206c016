import { expect, test } from "@playwright/test";
import { logIn } from "./demo-member";
import { fetchHostStation } from "./demo-station";

// The demo station offers the fuel campaign with three open campaigns (seed/src/demo/fuel.rs);
// its member holds no voucher on a fresh database.
const CAMPAIGN = "Gasolina do associado";

test("a member takes a fuel voucher and sees it in 'Meus Vouchers'", async ({ page, request }) => {
  const station = await fetchHostStation(request);
  await logIn(page, station);
  await page.getByRole("dialog", { name: "Aviso de cookies" }).getByRole("button", { name: "Aceito" }).click();

  // From the menu's "Minha conta" group.
  await page.getByRole("button", { name: "Menu" }).click();
  await page.getByRole("navigation", { name: "Menu principal" }).getByRole("link", { name: "Combustível" }).click();
  await expect(page).toHaveURL(/\/homepage\/legisclub-gasolina$/);
  await expect(page.getByRole("heading", { level: 1, name: "Campanha de combustível" })).toBeVisible();
  await expect(page.getByRole("tab", { name: "Campanhas" })).toHaveAttribute("aria-selected", "true");

  const campaign = page.getByRole("radio", { name: CAMPAIGN });
  await expect(campaign).toBeEnabled();
  await campaign.check({ force: true });
  await page.getByRole("button", { name: "Gerar voucher", exact: true }).click();

  await expect(page.getByRole("tab", { name: "Meus Vouchers" })).toHaveAttribute("aria-selected", "true");
  const voucher = page.getByRole("article", { name: CAMPAIGN });
  await expect(voucher).toBeVisible();
  await expect(voucher.getByText(/^[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/)).toBeVisible();
  await expect(voucher.getByText("20 litros")).toBeVisible();
  await expect(voucher.getByText("R$ 119,80")).toBeVisible();
  await expect(voucher.getByText("Válido", { exact: true })).toBeVisible();

  // Once per member: the campaign is now held, and a reload keeps the voucher.
  await page.getByRole("tab", { name: "Campanhas" }).click();
  await expect(page.getByRole("radio", { name: CAMPAIGN })).toBeDisabled();
  await page.goto("/homepage/legisclub-gasolina?aba=vouchers");
  await expect(page.getByRole("article", { name: CAMPAIGN })).toBeVisible();
});

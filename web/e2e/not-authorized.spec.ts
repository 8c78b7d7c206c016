import { expect, test } from "@playwright/test";

test("/not-autorized explains the 401", async ({ page }) => {
  await page.goto("/not-autorized");

  await expect(page.getByRole("heading", { level: 1, name: "Erro 401!" })).toBeVisible();
  await expect(page.getByText("Você não possui autorização para acessar esta página.")).toBeVisible();
});

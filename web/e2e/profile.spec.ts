import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { fetchHostStation } from "./demo-station";
import { signUpAndActivate } from "./signup-flow";

// A 1x1 PNG: the profile requires a picture.
const PIXEL_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

test("a member edits the profile, then prints and saves the member card", async ({ page, request }) => {
  test.setTimeout(120_000);
  const station = await fetchHostStation(request);
  const email = `perfil-${Date.now()}@exemplo.com.br`;
  await signUpAndActivate(page, station, { name: "Pessoa do Perfil", email, password: "Perfil123" });

  await page.goto("/homepage/perfil");
  await expect(page.getByRole("heading", { level: 1, name: "Perfil" })).toBeVisible();
  await page.getByRole("button", { name: "Editar perfil" }).click();
  const form = page.getByRole("form", { name: "Editar perfil" });
  await form.getByLabel("Alterar foto").setInputFiles({ name: "foto.png", mimeType: "image/png", buffer: PIXEL_PNG });
  await form.getByLabel("Nome").fill("Carla Perfil");
  await form.getByLabel("Estado").selectOption("RJ");
  await form.getByLabel("Data de nascimento").fill("17/05/1990");
  await form.getByRole("button", { name: "Salvar" }).click();
  await expect(page.getByRole("region", { name: "Notificações" })).toContainText("com sucesso");
  await expect(page.getByRole("button", { name: "Editar perfil" })).toBeVisible();

  // The demo station shows the member card, in the menu and at its address.
  await page.getByRole("button", { name: "Menu", exact: true }).click();
  await page.getByRole("link", { name: "Carteirinha" }).click();
  await expect(page).toHaveURL(/\/homepage\/carteirinha$/);
  const card = page.getByRole("article", { name: "Carteirinha de Carla Perfil" });
  await expect(card).toBeVisible();
  await expect(card).toContainText("17/05/1990");
  await expect(card).toContainText(/Válida até \d{2}\/\d{2}\/\d{4}/);
  await expect(card.getByRole("img", { name: "QR code de validação da carteirinha" })).toBeVisible();

  // Printing opens the browser's dialog: counted instead.
  await page.evaluate(() => {
    const counted = window as unknown as { printed: number };
    counted.printed = 0;
    window.print = () => {
      counted.printed += 1;
    };
  });
  await page.getByRole("button", { name: "Imprimir" }).click();
  expect(await page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);

  const downloading = page.waitForEvent("download", { timeout: 45_000 });
  await page.getByRole("button", { name: "Salvar PDF" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^carteirinha-\d{8}\.pdf$/);
  const file = await readFile(await download.path());
  expect(file.subarray(0, 4).toString("latin1")).toBe("%PDF");
});

import { expect, test } from "@playwright/test";
import { confirmAgeIfAsked, fetchHostStation } from "./demo-station";

const UPDATED_AT = "Última atualização: 05 de maio de 2023";

test("the terms of use show their heading, sections and date", async ({ page, request }) => {
  const station = await fetchHostStation(request);
  await page.goto("/termos-de-uso");
  await confirmAgeIfAsked(page, station);

  await expect(page.getByRole("heading", { level: 1, name: "Termos de uso" })).toBeVisible();
  await expect(page.getByText(UPDATED_AT)).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "12. Limites de responsabilidade" })).toBeVisible();
});

test("the privacy policy shows its heading and date", async ({ page, request }) => {
  const station = await fetchHostStation(request);
  await page.goto("/politica-de-privacidade");
  await confirmAgeIfAsked(page, station);

  await expect(page.getByRole("heading", { level: 1, name: "Política de privacidade" })).toBeVisible();
  await expect(page.getByText(UPDATED_AT)).toBeVisible();
});

test("the QR validator tells a valid member from an unknown id", async ({ page, request }) => {
  const station = await fetchHostStation(request);
  const login = await request.post(`/api/auth/login/establishment/${station.id}`, {
    data: { email: "membro@demo.filia.com.br", password: "Membro123" },
  });
  expect(login.ok()).toBe(true);
  const { user } = (await login.json()) as { user: { id: number } };

  await page.goto(`/qr-code-user-validator/${user.id}`);
  await confirmAgeIfAsked(page, station);
  await expect(page.getByRole("heading", { level: 1, name: "Usuário válido!" })).toBeVisible();

  await page.goto("/qr-code-user-validator/999999999");
  await expect(page.getByRole("heading", { level: 1, name: "Usuário inválido!" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Usuário válido!" })).toHaveCount(0);
});

import { expect, test } from "@playwright/test";
import { AGE_QUESTION, confirmAgeIfAsked, DEMO_STATION_NAME, fetchHostStation } from "./demo-station";

test("the cookie notice stays accepted after a reload", async ({ page, request }) => {
  const station = await fetchHostStation(request);
  await page.goto("/");
  await confirmAgeIfAsked(page, station);

  const notice = page.getByRole("dialog", { name: "Aviso de cookies" });
  await expect(notice).toBeVisible();
  await notice.getByRole("button", { name: "Aceito" }).click();
  await expect(notice).toBeHidden();

  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: DEMO_STATION_NAME })).toBeVisible();
  await expect(notice).toBeHidden();
});

test("a visitor answers the age gate once", async ({ page, request }) => {
  const station = await fetchHostStation(request);
  expect(station.age_gate, "the demo station is seeded with the age gate on").toBe(true);
  await page.goto("/");

  const gate = page.getByRole("dialog", { name: AGE_QUESTION });
  await expect(gate).toBeVisible();
  await expect(gate.getByRole("button", { name: "Não, sair" })).toHaveCount(station.has_majority_security ? 1 : 0);

  await page.keyboard.press("Escape");
  await expect(gate).toBeVisible();

  await gate.getByRole("button", { name: "Sim, quero continuar" }).click();
  await expect(gate).toBeHidden();

  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: DEMO_STATION_NAME })).toBeVisible();
  await expect(gate).toBeHidden();
});

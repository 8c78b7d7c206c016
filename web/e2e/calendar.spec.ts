import { expect, test } from "@playwright/test";
import { logIn } from "./demo-member";
import { fetchHostStation } from "./demo-station";

// The demo's calendar holds today's football tournament, 14:00 to 18:00 on the station's
// clock (seed/src/demo/calendar.rs, TODAY_EVENT).
const TODAY_EVENT = "Torneio de futebol society";

test("a member opens today's event from the calendar", async ({ page, request }) => {
  const station = await fetchHostStation(request);
  const { time_zone: timeZone } = station as typeof station & { time_zone: string };
  const today = new Intl.DateTimeFormat("pt-BR", {
    timeZone,
    day: "2-digit",
    month: "2-digit",
    year: "numeric",
  }).format(new Date());

  await logIn(page, station);
  await page.getByRole("dialog", { name: "Aviso de cookies" }).getByRole("button", { name: "Aceito" }).click();
  await page.goto("/homepage/calendario");
  await expect(page.getByRole("heading", { level: 1, name: "Eventos" })).toBeVisible();

  // The month view, then the list view, each show it with its time.
  const inMonth = page.getByRole("link", { name: `14:00 ${TODAY_EVENT}` });
  await expect(inMonth).toBeVisible();
  await page.getByRole("button", { name: "Lista", exact: true }).click();
  await expect(page.getByRole("button", { name: "Lista", exact: true })).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByRole("link", { name: TODAY_EVENT })).toBeVisible();
  await page.getByRole("button", { name: "Mês", exact: true }).click();

  await inMonth.click();
  await expect(page).toHaveURL(/\/homepage\/calendario\/\d+$/);
  await expect(page.getByRole("heading", { level: 1, name: TODAY_EVENT })).toBeVisible();
  await expect(page.getByText(`${today} 14:00`)).toBeVisible();
  await expect(page.getByText(`${today} 18:00`)).toBeVisible();

  await page.getByRole("link", { name: "Voltar ao calendário" }).click();
  await expect(page).toHaveURL(/\/homepage\/calendario\?visao=mes/);
  await expect(inMonth).toBeVisible();
});

import { expect, test } from "@playwright/test";
import { logIn } from "./demo-member";
import { fetchHostStation } from "./demo-station";

// The demo station's content (seed/src/demo/content.rs): news with a drawn picture, and files
// drawn as PDFs, one of them private to members.
const NEWS_TITLE = "Assembleia geral ordinária de 2026";
const PUBLIC_DOWNLOAD = "Estatuto Social";
const PRIVATE_DOWNLOAD = "Convenção Coletiva 2026";

test("a member reads a news item and downloads a public and a private file", async ({ page, request }) => {
  const station = await fetchHostStation(request);
  await logIn(page, station);

  await page.goto("/homepage/noticias");
  await expect(page.getByRole("heading", { level: 1, name: "Notícias" })).toBeVisible();
  await page.getByRole("link", { name: `Ver Mais: ${NEWS_TITLE}` }).click();
  await expect(page).toHaveURL(/\/homepage\/noticias\/\d+$/);
  await expect(page.getByRole("heading", { level: 1, name: NEWS_TITLE })).toBeVisible();
  await expect(page.getByText("Prestação de contas de 2025")).toBeVisible();

  await page.goto("/homepage/downloads");
  await expect(page.getByRole("heading", { level: 1, name: "Arquivos" })).toBeVisible();
  await page.getByRole("link", { name: `Ver Mais: ${PUBLIC_DOWNLOAD}` }).click();
  await expect(page.getByRole("heading", { level: 1, name: PUBLIC_DOWNLOAD })).toBeVisible();
  const publicFile = await page.getByRole("link", { name: "Baixar arquivo" }).getAttribute("href");
  expect(publicFile).toMatch(/^\/api\/media\//);
  const served = await request.get(publicFile!);
  expect(served.headers()["content-type"]).toBe("application/pdf");

  await page.goto("/homepage/downloads");
  await page.getByRole("link", { name: `Ver Mais: ${PRIVATE_DOWNLOAD}` }).click();
  await expect(page.getByRole("heading", { level: 1, name: PRIVATE_DOWNLOAD })).toBeVisible();
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Baixar arquivo" }).click();
  expect((await download).suggestedFilename()).toBe("convencao-coletiva-2026.pdf");

  // Without the member's token the private file is refused.
  const privateId = /\/homepage\/downloads\/(\d+)$/.exec(page.url())?.[1];
  const refused = await request.get(`/api/downloads/${privateId}/file`);
  expect(refused.status()).toBe(401);
});

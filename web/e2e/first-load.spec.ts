import { expect, test } from "@playwright/test";
import { confirmAgeIfAsked, DEMO_STATION_NAME, fetchHostStation } from "./demo-station";

// The first pages as a browser gets them from the API: compressed by the build, and with
// nothing the Content-Security-Policy refuses (an inlined font once was).
test("the landing and login pages arrive compressed, with nothing refused", async ({ page, request }) => {
  const station = await fetchHostStation(request);
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  const scripts: { url: string; encoding: string | undefined }[] = [];
  page.on("response", (response) => {
    if (new URL(response.url()).pathname.endsWith(".js")) {
      scripts.push({ url: response.url(), encoding: response.headers()["content-encoding"] });
    }
  });

  await page.goto("/");
  await confirmAgeIfAsked(page, station);
  await expect(page.getByRole("heading", { level: 1, name: DEMO_STATION_NAME })).toBeVisible();
  await page.getByRole("link", { name: "Entrar", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Acesse a sua conta" })).toBeVisible();

  expect(scripts.length).toBeGreaterThan(0);
  // Chromium offers Brotli over https only; over plain http it takes the gzip copy.
  for (const script of scripts) expect(["br", "gzip"], script.url).toContain(script.encoding);
  expect(errors).toEqual([]);
});

import { expect, test, type Page } from "@playwright/test";
import type { Landing } from "../src/types/api";
import { confirmAgeIfAsked, DEMO_STATION_NAME, fetchHostStation } from "./demo-station";

// Issue 30: a phone (390 CSS px at 2x) downloads the landing's pictures at the width it
// shows them. The page is walked to its end (every section's pictures requested) twice:
// as it is, and with the landing's srcsets removed from the answer (how it was before the
// variants); the figures go in the note.
type Downloaded = { url: string; bytes: number };

async function walkTheLanding(page: Page, withSrcsets: boolean): Promise<Downloaded[]> {
  const station = await fetchHostStation(page.request);
  if (!withSrcsets) {
    await page.route("**/api/stations/*/landing", async (route) => {
      const response = await route.fetch();
      const landing = (await response.json()) as Landing;
      for (const slide of landing.slides) slide.image_srcset = null;
      for (const section of landing.sections) {
        section.background_image_srcset = null;
        for (const item of section.items) item.image_srcset = null;
      }
      await route.fulfill({ response, json: landing });
    });
  }
  const images: Promise<Downloaded | null>[] = [];
  page.on("response", (response) => {
    const { pathname } = new URL(response.url());
    if (!pathname.startsWith("/api/media/") || response.status() !== 200) return;
    images.push(
      response
        .body()
        .then((body) => ({ url: pathname, bytes: body.length }))
        .catch(() => null),
    );
  });
  await page.goto("/");
  await confirmAgeIfAsked(page, station);
  await expect(page.getByRole("heading", { level: 1, name: DEMO_STATION_NAME })).toBeVisible();
  await page.getByRole("dialog", { name: "Aviso de cookies" }).getByRole("button", { name: "Aceito" }).click();
  // Down the page a screen at a time, so every lazy picture and section is reached.
  for (let step = 0; step < 40; step += 1) {
    const atEnd = await page.evaluate(() => {
      window.scrollBy(0, window.innerHeight * 0.8);
      return window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2;
    });
    await page.waitForTimeout(150);
    if (atEnd) break;
  }
  await page.waitForLoadState("networkidle");
  const downloaded = (await Promise.all(images)).filter((image): image is Downloaded => image !== null);
  // A picture shown twice is fetched once (the browser's cache).
  return [...new Map(downloaded.map((image) => [image.url, image])).values()];
}

const total = (images: Downloaded[]) => images.reduce((sum, image) => sum + image.bytes, 0);

test("a phone downloads the landing's pictures at the width it shows them", async ({ browser }) => {
  const options = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true };
  const beforeContext = await browser.newContext(options);
  const before = await walkTheLanding(await beforeContext.newPage(), false);
  await beforeContext.close();
  const afterContext = await browser.newContext(options);
  const after = await walkTheLanding(await afterContext.newPage(), true);
  await afterContext.close();

  const landingPictures = (images: Downloaded[]) => images.filter((image) => image.url.startsWith("/api/media/landing/"));
  console.log(
    `landing image bytes at 390 px, DPR 2: before ${total(before)} (${before.length} images; landing's own ${total(landingPictures(before))}), ` +
      `after ${total(after)} (${after.length} images; landing's own ${total(landingPictures(after))})`,
  );
  for (const image of after) console.log(`  ${image.url} ${image.bytes}`);

  // The slides (1200 px) come at 960 and the cards (640 px) whole or at 480: copies only.
  expect(after.some((image) => /^\/api\/media\/landing\/demo\/slide-1\.960w\.jpg$/.test(image.url))).toBe(true);
  expect(after.some((image) => image.url === "/api/media/landing/demo/slide-1.png")).toBe(false);
  expect(total(landingPictures(after))).toBeLessThan(total(landingPictures(before)));
});

import { expect, test } from "@playwright/test";
import { earnedCents, logIn, memberApi } from "./demo-member";
import { headerBalanceCents, releaseCashbackNow } from "./demo-staff";
import { fetchHostStation } from "./demo-station";

// The demo playlist (domain/src/infra/demo/activities.rs): three clips of 6 s drawn by the
// seed, the first one required. The server accepts each "viewed" only after 80% of it has
// really played, so the test watches them in real time, as a member would.
const JOURNEY = "Trilha do novo associado";
const PLAYLIST = "Playlist: primeiros passos no clube";
const VIDEOS = ["Como juntar pontos", "Como trocar pontos por benefícios", "Como falar com o clube"];
/** The playlist's 20 points, as the wallet credits them (centavos). */
const PLAYLIST_CREDIT_CENTS = 2000;

test("the demo member watches the playlist to the end and earns its points once", async ({ page, request }) => {
  test.setTimeout(120_000);
  const station = await fetchHostStation(request);
  const member = await memberApi(request, station);
  const before = await earnedCents(request, member);
  await logIn(page, station);
  const headerBefore = await headerBalanceCents(page);

  await page.getByRole("region", { name: JOURNEY }).getByRole("link", { name: new RegExp(`^${PLAYLIST}`) }).click();
  await expect(page.getByRole("heading", { level: 1, name: PLAYLIST })).toBeVisible();
  const list = page.getByRole("list").filter({ hasText: VIDEOS[0] });
  const items = list.getByRole("button");
  await expect(items).toHaveCount(VIDEOS.length);
  await expect(items.nth(0)).toContainText("00:06");
  // The required first video locks the others until it is viewed.
  await expect(items.nth(1)).toBeDisabled();
  await expect(items.nth(1)).toContainText("Bloqueado");

  // One click: each clip plays, is viewed at 80%, and the next starts by itself.
  const participation = page.waitForResponse(
    (response) => new URL(response.url()).pathname === "/api/video-playlist-participation",
    { timeout: 60_000 },
  );
  await page.getByRole("button", { name: new RegExp(`${VIDEOS[0]}.*Assistir`) }).click();
  for (const [index] of VIDEOS.entries()) {
    await expect(items.nth(index)).toContainText("Visto", { timeout: 20_000 });
  }
  expect((await participation).status()).toBe(201);
  await expect(page.getByRole("dialog", { name: PLAYLIST })).toBeVisible();
  await expect(page.getByRole("checkbox", { name: "Assisti a este vídeo" })).toBeChecked();

  await expect
    .poll(() => earnedCents(request, member), { timeout: 30_000 })
    .toBe(before + PLAYLIST_CREDIT_CENTS);
  // Sent again, it answers the same participation and pays nothing more.
  const again = await request.post("/api/video-playlist-participation", {
    headers: member.headers,
    data: { action_id: Number(new URL(page.url()).pathname.split("/").pop()) },
  });
  expect(again.status()).toBe(200);
  expect(await earnedCents(request, member)).toBe(before + PLAYLIST_CREDIT_CENTS);

  // Released by staff (the console's 'Liberar agora'), what the member earned taking part
  // (this playlist, and research.spec's quiz win) reaches the header's balance. Last of the
  // browser tests: the shop's need the demo member's balance below a seat's price.
  await releaseCashbackNow(request, station);
  await expect(async () => {
    await page.reload();
    expect(await headerBalanceCents(page)).toBeGreaterThanOrEqual(headerBefore + PLAYLIST_CREDIT_CENTS);
  }).toPass({ timeout: 30_000 });
});

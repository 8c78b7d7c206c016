import { expect, test } from "@playwright/test";
import { logIn } from "./demo-member";
import { confirmAgeIfAsked, fetchHostStation } from "./demo-station";

// The demo catalogue (domain/src/infra/demo/catalogue.rs).
const CATEGORY = "Participe";
const JOURNEY = "Trilha do novo associado";
const JOURNEY_ACTIVITY = "Playlist: primeiros passos no clube";
/** The journey activity's first video, a clip the seed draws (domain/src/infra/demo/activities.rs). */
const JOURNEY_ACTIVITY_VIDEO = "Como juntar pontos";
const GATED_ACTIVITY = "Desafio final da trilha do conhecimento";
const PREREQUISITES = ["Quiz: conheça seus direitos", "Pesquisa de satisfação 2026"];
const PUBLIC_ACTIVITY = "Café com o presidente";
const PUBLIC_ACTIVITY_BUTTON = "Quero participar";

/** A card's link or button: its name starts with the activity's name (the cashback follows). */
function startsWith(name: string): RegExp {
  return new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`);
}


test("the demo member browses the home, a category, a journey, a gated activity and a search", async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  const station = await fetchHostStation(request);
  await logIn(page, station);

  // The featured carousel moves on by itself after 5 s (it holds still under the pointer).
  await page.mouse.move(0, 0);
  const carousel = page.getByRole("region", { name: "Destaques" });
  await expect(carousel.getByRole("button", { name: "Destaque 1" })).toHaveAttribute("aria-current", "true");
  await expect(carousel.getByRole("group", { name: /^1 de \d$/ })).toBeVisible();
  await expect(carousel.getByRole("button", { name: "Destaque 2" })).toHaveAttribute("aria-current", "true", {
    timeout: 8_000,
  });
  await expect(carousel.getByRole("group", { name: /^2 de \d$/ })).toBeVisible();
  await expect(carousel.getByRole("button", { name: "Destaque 1" })).toHaveAttribute("aria-current", "false");

  // A journey's activity opens its page.
  await page.getByRole("region", { name: JOURNEY }).getByRole("link", { name: startsWith(JOURNEY_ACTIVITY) }).click();
  await expect(page).toHaveURL(/\/homepage\/atividades\/\d+$/);
  await expect(page.getByRole("heading", { level: 1, name: JOURNEY_ACTIVITY })).toBeVisible();
  await expect(page.getByRole("tab", { name: "Regulamento" })).toBeVisible();
  // Its first video plays from our own media, once its light thumbnail is clicked.
  await page.getByRole("button", { name: new RegExp(`${JOURNEY_ACTIVITY_VIDEO}.*Assistir`) }).click();
  const video = page.getByLabel(JOURNEY_ACTIVITY_VIDEO);
  await expect(video).toHaveJSProperty("tagName", "VIDEO");
  const clip = await request.get((await video.getAttribute("src")) ?? "");
  expect(clip.headers()["content-type"]).toBe("video/mp4");

  // A category's whole grid, then an activity whose prerequisites are not done.
  await page.goBack();
  await expect(page).toHaveURL(/\/homepage$/);
  await page.getByRole("region", { name: CATEGORY }).getByRole("link", { name: "Ver mais" }).click();
  await expect(page).toHaveURL(/\/homepage\/categoria\/\d+$/);
  await expect(page.getByRole("heading", { level: 1, name: CATEGORY })).toBeVisible();
  const grid = page.getByRole("list", { name: CATEGORY });
  await grid.getByRole("button", { name: startsWith(GATED_ACTIVITY) }).click();
  const almostThere = page.getByRole("dialog", { name: "Quase lá" });
  await expect(almostThere).toBeVisible();
  for (const required of PREREQUISITES) {
    await expect(almostThere.getByRole("link", { name: required })).toBeVisible();
  }
  await almostThere.getByRole("button", { name: "Fechar" }).click();
  await expect(almostThere).toHaveCount(0);

  // The top bar's search ignores accents.
  await page.getByRole("searchbox", { name: "Termo de busca" }).fill("cafe");
  await page.getByRole("button", { name: "Buscar" }).click();
  await expect(page).toHaveURL(/\/homepage\/search\/cafe$/);
  await expect(page.getByRole("heading", { level: 1, name: '1 resultado(s) da busca "cafe"' })).toBeVisible();
  await expect(page.getByRole("link", { name: startsWith(PUBLIC_ACTIVITY) })).toBeVisible();
});

test("a visitor opens the public activity and its button leads to the sign-up", async ({ page, request }) => {
  const station = await fetchHostStation(request);
  const answer = await request.get(`/api/public-actions/${station.id}`);
  expect(answer.ok()).toBe(true);
  const publicActivities = (await answer.json()) as { id: number; name: string }[];
  const activity = publicActivities.find(({ name }) => name === PUBLIC_ACTIVITY);
  expect(activity).toBeDefined();

  await page.goto(`/atividade/${activity?.id}`);
  await confirmAgeIfAsked(page, station);
  await expect(page.getByRole("heading", { level: 1, name: PUBLIC_ACTIVITY })).toBeVisible();
  await page.getByRole("link", { name: PUBLIC_ACTIVITY_BUTTON }).click();
  await expect(page).toHaveURL(/\/cadastrar$/);
  await expect(page.getByRole("heading", { name: "Cadastre-se" })).toBeVisible();
});

test("a visitor sees the public featured activities on the landing page, and a slide opens its public page", async ({
  page,
  request,
}) => {
  const station = await fetchHostStation(request);
  const answer = await request.get(`/api/public-actions/${station.id}?where[featuredPublic]=1`);
  expect(answer.ok()).toBe(true);
  const featured = (await answer.json()) as { id: number; name: string }[];
  expect(featured.map(({ name }) => name)).toContain(PUBLIC_ACTIVITY);
  const [first] = featured;

  await page.goto("/");
  await confirmAgeIfAsked(page, station);
  await page.getByRole("dialog", { name: "Aviso de cookies" }).getByRole("button", { name: "Aceito" }).click();
  // The landing's public activities section loads its carousel as it nears the viewport.
  await page.getByRole("region", { name: "Atividades abertas" }).scrollIntoViewIfNeeded();
  const carousel = page.getByRole("region", { name: "Destaques" });
  // The pointer on it holds it still.
  await carousel.hover();
  await expect(carousel.getByRole("group", { name: `1 de ${featured.length}` })).toBeVisible();
  await carousel.getByRole("link", { name: startsWith(first?.name ?? "") }).click();

  await expect(page).toHaveURL(new RegExp(`/atividade/${first?.id}$`));
  await expect(page.getByRole("heading", { level: 1, name: first?.name })).toBeVisible();
});

test("the demo member's activities page loads the next page as its end is scrolled to", async ({ page, request }) => {
  test.setTimeout(60_000);
  // The demo holds fewer activities than a page of the web (24): the browser asks the
  // server for pages of 8 instead, which the server pages as it would pages of 24.
  const pageSize = 8;
  await page.route(/\/api\/actions\/\?.*limit=24/, (route) =>
    route.continue({ url: route.request().url().replace("limit=24", `limit=${pageSize}`) }),
  );
  const offsets: number[] = [];
  page.on("request", (sent) => {
    const url = new URL(sent.url());
    if (url.pathname === "/api/actions/" && url.searchParams.has("offset")) offsets.push(Number(url.searchParams.get("offset")));
  });
  // A phone's screen, so that a page of cards is longer than the screen.
  await page.setViewportSize({ width: 390, height: 740 });
  const station = await fetchHostStation(request);
  await logIn(page, station);

  const firstPage = page.waitForResponse((response) => /\/api\/actions\/\?.*offset=0/.test(response.url()));
  await page.goto("/homepage/atividades");
  const total = Number((await firstPage).headers()["x-total-count"]);
  expect(total).toBeGreaterThan(2 * pageSize);
  const cards = page.getByRole("list", { name: "Atividades" }).getByRole("article");
  await expect(cards).toHaveCount(pageSize);
  expect(offsets).toEqual([0]);

  for (let loaded = pageSize; loaded < total; loaded += pageSize) {
    await cards.last().scrollIntoViewIfNeeded();
    await expect(cards).toHaveCount(Math.min(loaded + pageSize, total));
  }
  expect(offsets).toEqual(Array.from({ length: Math.ceil(total / pageSize) }, (_, index) => index * pageSize));
  await expect(page.getByRole("button", { name: "Carregar mais atividades" })).toHaveCount(0);
});

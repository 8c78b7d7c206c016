import AxeBuilder from "@axe-core/playwright";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { logIn } from "./demo-member";
import { STAFF_EMAIL, STAFF_PASSWORD } from "./demo-staff";
import { confirmAgeIfAsked, fetchHostStation, FULL_STATION, FULL_STATION_URL } from "./demo-station";

// Every screen a visitor, the demo member and the support staff reach, checked by axe-core
// against WCAG 2.1 A and AA once what it loads has arrived. The other specs check what each
// screen does; this one what every screen is for a keyboard and a screen reader.

const WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

// Each test walks up to a dozen screens, each loaded to idle and analysed: on a busy
// two-core machine that outgrows the 30 s meant for one scenario (both visitor and console
// walks timed out there), so these get a minute and a half.
test.describe.configure({ timeout: 90_000 });

/** Opens `path`, waits until its data has arrived, and returns axe's violations, summarised. */
async function violationsAt(page: Page, path: string) {
  await page.goto(path);
  await page.waitForLoadState("networkidle");
  await expect(page.locator("[aria-busy=true]")).toHaveCount(0);
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_21_AA).analyze();
  const found = violations.map((violation) => ({
    path,
    rule: violation.id,
    impact: violation.impact,
    targets: violation.nodes.slice(0, 3).map((node) => node.target.join(" ")),
  }));
  // One main heading per screen, which screen readers jump to (axe's best-practice rule,
  // outside the WCAG tags: the empty cart once had none).
  const mainHeadings = await page.locator("h1").count();
  if (mainHeadings !== 1) found.push({ path, rule: "one-main-heading", impact: "moderate", targets: [`${mainHeadings} h1`] });
  return found;
}

async function expectAccessible(page: Page, paths: string[]) {
  const found = [];
  for (const path of paths) found.push(...(await violationsAt(page, path)));
  expect(found).toEqual([]);
}

/** The station's first plan with a price (the demo's 'Essencial'), as its public page names it. */
async function firstPlanId(request: APIRequestContext): Promise<number> {
  const plans = await request.get("/api/subscription-plans");
  expect(plans.ok()).toBe(true);
  const priced = ((await plans.json()) as Array<{ id: number; amount: number | null }>).find((plan) => plan.amount !== null);
  expect(priced).toBeDefined();
  return priced?.id ?? 0;
}

/** The station's first about page (the demo's 'Quem somos'), as the landing's footer links it. */
async function firstAboutPageId(request: APIRequestContext, stationId: number): Promise<number> {
  const landing = await request.get(`/api/stations/${stationId}/landing`);
  expect(landing.ok()).toBe(true);
  const { about_pages: pages } = (await landing.json()) as { about_pages: Array<{ id: number }> };
  expect(pages.length).toBeGreaterThan(0);
  return pages[0]?.id ?? 0;
}

test("a visitor's screens pass axe (WCAG 2.1 AA)", async ({ page, request }) => {
  const station = await fetchHostStation(request);
  await page.goto("/");
  await confirmAgeIfAsked(page, station);
  await expectAccessible(page, [
    "/",
    "/login",
    "/cadastrar",
    "/esqueci-minha-senha",
    "/termos-de-uso",
    "/politica-de-privacidade",
    "/not-autorized",
    "/validador/PEDIDO0000",
    "/nada-aqui",
    `/planos/${await firstPlanId(request)}`,
    "/suporte",
    "/suporte-enterprise",
    `/sobre/${await firstAboutPageId(request, station.id)}`,
  ]);
});

// The member's screens, in three walks of a dozen each so that every walk fits its 90 s on a
// loaded machine (one walk of them all outgrew two minutes beside the web's unit tests).
const MEMBER_WALKS: Record<string, string[]> = {
  "home, activities and shop": [
    "/homepage",
    "/homepage/atividades",
    "/homepage/quizzes",
    "/homepage/search",
    "/homepage/search/oficina",
    "/homepage/carrinho",
    "/homepage/pedidos",
    "/homepage/vouchers",
    "/homepage/minhas-compras",
    "/homepage/feed",
    "/homepage/convites-do-usuario",
    "/homepage/numeros-da-sorte",
  ],
  "wallet, plans and calendar": [
    "/homepage/trofeus",
    "/homepage/extrato/extratos-totais",
    "/homepage/meios-de-pagamento/comprar",
    "/homepage/meios-de-pagamento/comprar?aba=pedidos",
    "/homepage/planos",
    "/homepage/planos/editar-pagamento",
    "/homepage/planos/sobconsulta",
    "/homepage/cartao-assinatura",
    "/homepage/assinaturas",
    "/homepage/calendario",
    "/homepage/calendario?visao=semana",
    "/homepage/calendario?visao=dia",
    "/homepage/calendario?visao=lista",
  ],
  "content, profile and services": [
    "/homepage/noticias",
    "/homepage/downloads",
    "/homepage/prestacao-de-contas",
    "/homepage/perfil",
    "/homepage/carteirinha",
    "/homepage/legisclub-gasolina",
    "/homepage/legisclub-gasolina?aba=vouchers",
    "/homepage/support",
    "/homepage/nada-aqui",
  ],
};

for (const [walk, paths] of Object.entries(MEMBER_WALKS)) {
  test(`the member's screens pass axe (WCAG 2.1 AA): ${walk}`, async ({ page, request }) => {
    const station = await fetchHostStation(request);
    await logIn(page, station);
    await expectAccessible(page, paths);
  });
}

test("the member's detail screens pass axe (WCAG 2.1 AA): a news item, a download, an activity", async ({ page, request }) => {
  const station = await fetchHostStation(request);
  await logIn(page, station);
  // Each as its list links to it.
  for (const [list, prefix] of [
    ["/homepage/noticias", "/homepage/noticias/"],
    ["/homepage/downloads", "/homepage/downloads/"],
    ["/homepage/atividades", "/homepage/atividades/"],
  ] as const) {
    await page.goto(list);
    const first = page.locator(`a[href^='${prefix}']`).first();
    await expect(first).toBeVisible();
    await expectAccessible(page, [(await first.getAttribute("href")) ?? ""]);
  }
});

test.describe("the station with every flag on", () => {
  // Its home's shortcut tiles and its Enterprise card.
  test.use({ baseURL: FULL_STATION_URL });

  test("its member's extra screens pass axe (WCAG 2.1 AA)", async ({ page }) => {
    await logIn(page, FULL_STATION);
    await expect(page.getByRole("navigation", { name: "Atalhos" })).toBeVisible();
    await expectAccessible(page, ["/homepage", "/homepage/planos", "/homepage/search"]);
  });
});

test("the support console's screens pass axe (WCAG 2.1 AA)", async ({ page, request }) => {
  const station = await fetchHostStation(request);
  await page.goto("/login");
  await confirmAgeIfAsked(page, station);
  await page.getByLabel("E-mail").fill(STAFF_EMAIL);
  await page.getByLabel("Senha").fill(STAFF_PASSWORD);
  await page.getByRole("button", { name: "Entrar" }).click();
  await expect(page).toHaveURL(/\/homepage$/);
  await expectAccessible(page, ["/ops", "/ops/tarefas", "/ops/denuncias", "/ops/auditoria", "/ops/assinaturas", "/ops/recargas", "/ops/suporte"]);
});

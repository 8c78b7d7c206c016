import { expect, test } from "@playwright/test";
import { logIn, memberApi } from "./demo-member";
import { fetchHostStation } from "./demo-station";

// The demo's share activity (type 5, domain/src/infra/demo.rs): its first content links to
// the station's sign-up page, where a visitor of the share page is sent.
const SHARE_ACTIVITY = "Compartilhe o Clube Filia Demo";
const CATEGORY = "Comunidade";

test("the demo member copies the share activity's short link, which a visitor follows to the shared page", async ({
  page,
  request,
  browser,
  baseURL,
}) => {
  const station = await fetchHostStation(request);
  const member = await memberApi(request, station);
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await logIn(page, station);

  // The home's row shows its first activities; the share is further in the category.
  await page.getByRole("region", { name: CATEGORY }).getByRole("link", { name: "Ver mais" }).click();
  await page.getByRole("link", { name: new RegExp(`^${SHARE_ACTIVITY}`) }).click();
  await expect(page.getByRole("heading", { level: 1, name: SHARE_ACTIVITY })).toBeVisible();
  const linkField = page.getByLabel("Seu link de compartilhamento");
  await expect(linkField).toHaveValue(/\/s\/[2-9A-HJ-NP-Z]{8}$/);
  const link = await linkField.inputValue();
  await expect(page.getByRole("link", { name: "WhatsApp" })).toHaveAttribute("href", /^https:\/\/wa\.me\/\?text=/);

  await page.getByRole("button", { name: "Copiar link" }).click();
  await expect(page.getByText("Obrigado por compartilhar.")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);

  // A visitor (a fresh browser, no session) opens the short link on this host: the redirect
  // leads to the share page, which counts the visit and opens the shared page.
  const visitor = await browser.newContext({ baseURL });
  const visitorPage = await visitor.newPage();
  const redirect = await visitorPage.request.get(new URL(link).pathname, { maxRedirects: 0 });
  expect(redirect.status()).toBe(302);
  expect(redirect.headers()["location"]).toMatch(new RegExp(`^/compartilhamento\\?source=${member.id}&campaign=\\d+$`));
  await visitorPage.goto(new URL(link).pathname);
  await expect(visitorPage).toHaveURL(/\/cadastrar$/);
  await visitor.close();
});

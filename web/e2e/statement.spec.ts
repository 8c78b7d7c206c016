import { expect, test, type Page } from "@playwright/test";
import { confirmAgeIfAsked, DEMO_STATION_NAME, fetchHostStation } from "./demo-station";
import { waitForMail } from "./mailbox";

const PASSWORD = "Extrato123";
const STAFF_EMAIL = "equipe@demo.filia.com.br";
const STAFF_PASSWORD = "Equipe123";
// The demo station's sign-up activity pays 50 points; its currency is "Pontos", after the
// amount, multiplier 1.
const SIGNUP_REWARD = "50,00 Pontos";
const PENDING_TEXT = /A liberar em \d{2}\/\d{2}\/\d{4}|Aguardando liberação/;

/** The multi-step sign-up of signup.spec, from /cadastrar to the member area. */
async function signUp(page: Page, email: string) {
  await page.goto("/cadastrar");
  await page.getByLabel("Nome completo").fill("Pessoa do Extrato");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Telefone").fill("11987654321");
  await page.getByRole("checkbox", { name: /Li e aceito os Termos de uso/ }).check();
  await page.getByRole("button", { name: "Continuar" }).click();
  await page.getByLabel("Senha", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Confirme a senha").fill(PASSWORD);
  await page.getByRole("button", { name: "Cadastrar" }).click();

  await expect(page).toHaveURL(new RegExp(`/confirmacao/${encodeURIComponent(email)}$`));
  const mail = await waitForMail({ to: email });
  const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
  expect(code, "the activation e-mail carries a 6-digit code").toBeDefined();
  await page.getByLabel("Código de verificação").fill(code ?? "");
  await page.getByRole("button", { name: "Validar código" }).click();

  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Senha").fill(PASSWORD);
  await page.getByRole("button", { name: "Entrar" }).click();
  await expect(page).toHaveURL(/\/signup$/);
  await page.getByRole("button", { name: "Começar" }).click();
  await page.getByRole("button", { name: "Pular" }).click();
  await page.getByLabel("Data de nascimento").fill("05031990");
  await page.getByLabel("Cidade").fill("São Paulo");
  await page.getByLabel("Estado").selectOption("SP");
  await page.getByRole("button", { name: "Continuar" }).click();
  await page.getByRole("button", { name: "Ir para o início" }).click();
  await expect(page).toHaveURL(/\/homepage$/);
}

test("a new member sees the sign-up reward waiting, then released by staff, in the statement and the header", async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const station = await fetchHostStation(request);
  const email = `extrato-${Date.now()}@exemplo.com.br`;

  await page.goto("/");
  await confirmAgeIfAsked(page, station);
  await signUp(page, email);

  await page.goto("/homepage/extrato/extratos-totais");
  await expect(page.getByRole("heading", { name: "Extrato" })).toBeVisible();
  await expect(page.getByText("Você ainda não fez transações com créditos na plataforma.")).toBeVisible();
  await page.getByRole("tab", { name: "Créditos de Premiação" }).click();

  // The points.credit job writes the credit shortly after the activation.
  const reward = page.getByRole("tabpanel").getByRole("listitem").filter({ hasText: "Recompensa de cadastro" });
  await expect(async () => {
    await page.reload();
    await expect(reward).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await expect(reward).toContainText(SIGNUP_REWARD);
  await expect(reward).toContainText(PENDING_TEXT);
  await expect(page.getByRole("link", { name: "Saldo 0,00 Pontos" })).toBeVisible();

  // Staff, in a browser of their own, release the demo station's cashback now.
  const staffContext = await browser.newContext();
  const staff = await staffContext.newPage();
  await staff.goto("/login");
  await confirmAgeIfAsked(staff, station);
  await staff.getByLabel("E-mail").fill(STAFF_EMAIL);
  await staff.getByLabel("Senha").fill(STAFF_PASSWORD);
  await staff.getByRole("button", { name: "Entrar" }).click();
  await expect(staff).toHaveURL(/\/homepage$/);
  await staff.goto("/ops");
  const stations = staff.getByRole("region", { name: "Liberação de cashback" });
  await stations.getByRole("button", { name: `Liberar agora: ${DEMO_STATION_NAME}` }).click();
  await stations.getByRole("link", { name: "Acompanhar a liberação" }).click();
  await expect(staff.getByText("Concluída", { exact: true })).toBeVisible({ timeout: 30_000 });
  await staffContext.close();

  await page.reload();
  await expect(reward).toContainText(SIGNUP_REWARD);
  await expect(reward).not.toContainText(PENDING_TEXT);
  await expect(page.getByRole("link", { name: `Saldo ${SIGNUP_REWARD}` })).toBeVisible();
  await expect(page.getByText("A liberar", { exact: true }).locator("xpath=following-sibling::dd")).toHaveText(
    "0,00 Pontos",
  );
});

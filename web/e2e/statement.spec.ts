import { expect, test } from "@playwright/test";
import { confirmAgeIfAsked, DEMO_STATION_NAME, fetchHostStation } from "./demo-station";
import { STAFF_EMAIL, STAFF_PASSWORD } from "./demo-staff";
import { signUpAndActivate } from "./signup-flow";

// The demo station's sign-up activity pays 50 points; its currency is "Pontos", after the
// amount, multiplier 1.
const SIGNUP_REWARD = "50,00 Pontos";
const PENDING_TEXT = /A liberar em \d{2}\/\d{2}\/\d{4}|Aguardando liberação/;

test("a new member sees the sign-up reward waiting, then released by staff, in the statement and the header", async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const station = await fetchHostStation(request);
  const email = `extrato-${Date.now()}@exemplo.com.br`;

  await signUpAndActivate(page, station, { name: "Pessoa do Extrato", email, password: "Extrato123" });

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
  await staff
    .getByRole("dialog", { name: `Liberar o cashback de ${DEMO_STATION_NAME} agora?` })
    .getByRole("button", { name: "Liberar cashback" })
    .click();
  await stations.getByRole("link", { name: "Acompanhar a liberação" }).click();
  // The overview lists "Concluída" once per queue (and stays in the page, hidden, while the
  // job's screen loads): look only once the job's page is shown.
  await expect(staff).toHaveURL(/\/ops\/tarefas\/[^/]+$/);
  await expect(staff.getByRole("heading", { level: 1, name: /^Tarefa / })).toBeVisible();
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

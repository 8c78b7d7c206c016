import { expect, test, type Page } from "@playwright/test";
import { confirmAgeIfAsked, fetchHostStation } from "./demo-station";
import { smtpRestored, smtpUnreachable, waitForMail } from "./mailbox";

const MEMBER_EMAIL = "membro@demo.filia.com.br";
const STAFF_EMAIL = "equipe@demo.filia.com.br";
const STAFF_PASSWORD = "Equipe123";
const SMTP_DOWN_ERROR = "O servidor de e-mail não respondeu; vamos tentar de novo.";

// Whatever happens in the test, the next ones get their e-mail.
test.afterEach(async () => {
  await smtpRestored();
});

async function logInAsStaff(page: Page) {
  await page.goto("/login");
  await page.getByLabel("E-mail").fill(STAFF_EMAIL);
  await page.getByLabel("Senha").fill(STAFF_PASSWORD);
  await page.getByRole("button", { name: "Entrar" }).click();
  await expect(page).toHaveURL(/\/homepage$/);
}

// The e2e workers run with FILIA_JOB_BACKOFF_SCALE=20 (ops/lib.sh): the failed e-mail waits
// ten minutes for its next try, so only the console's re-run can deliver it within the test.
test("staff find an e-mail job that failed while SMTP was down, re-run it, and the mail arrives", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const station = await fetchHostStation(request);
  await smtpUnreachable();

  // The member asks for a reset link; its e-mail job meets a refused connection.
  await page.goto("/esqueci-minha-senha");
  await confirmAgeIfAsked(page, station);
  await page.getByLabel("E-mail").fill(MEMBER_EMAIL);
  await page.getByRole("button", { name: "Enviar" }).click();
  await expect(page.getByText("Sucesso! Verifique sua caixa de e-mails")).toBeVisible();

  await logInAsStaff(page);
  await page.goto("/ops/tarefas");
  await expect(page.getByRole("navigation", { name: "Console" })).toBeVisible();
  await expect(page.getByText("Suporte · Todas as estações")).toBeVisible();

  await page.getByLabel("Fila").selectOption("mail.send");
  await page.getByLabel("Texto").fill(MEMBER_EMAIL);
  await page.getByRole("button", { name: "Filtrar" }).click();
  await expect(page).toHaveURL(/[?&]queue=mail\.send/);

  // The list refreshes itself: the row shows the failure once the worker has tried.
  const row = page.getByRole("table", { name: "Tarefas" }).getByRole("row").filter({ hasText: "mail.send" });
  await expect(row).toHaveCount(1, { timeout: 20_000 });
  await expect(row).toContainText(SMTP_DOWN_ERROR, { timeout: 20_000 });
  await expect(row).toContainText("Aguardando nova tentativa");
  const jobId = (await row.getByRole("link").first().textContent())?.trim() ?? "";
  expect(jobId).not.toBe("");

  await row.getByRole("link", { name: jobId }).click();
  await expect(page).toHaveURL(new RegExp(`/ops/tarefas/${jobId}$`));
  const failures = page.getByRole("region", { name: "Falhas" });
  await expect(failures).toContainText("Tentativa 1");
  await expect(failures).toContainText(SMTP_DOWN_ERROR);
  // The payload shows the recipient, but never the e-mail's body: it holds the reset link.
  const payload = page.getByRole("region", { name: "Dados da tarefa" });
  await expect(payload).toContainText(MEMBER_EMAIL);
  await expect(payload).not.toContainText("redefinir-senha");

  await smtpRestored();
  await page.getByRole("button", { name: "Reexecutar" }).click();
  await expect(page.getByText("Concluída", { exact: true })).toBeVisible({ timeout: 30_000 });
  // The earlier failure stays in the detail.
  await expect(failures).toContainText(SMTP_DOWN_ERROR);

  const mail = await waitForMail({ to: MEMBER_EMAIL, subject: "Redefinição de senha" });
  expect(mail.text).toContain("/redefinir-senha/");

  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Auditoria" }).click();
  const entry = page
    .getByRole("table", { name: "Auditoria" })
    .getByRole("row")
    .filter({ hasText: "Reexecutou a tarefa" })
    .filter({ hasText: jobId });
  await expect(entry).toHaveCount(1);
  await expect(entry).toContainText("Equipe Demo");
});

test("a member who opens the console gets the staff-only page", async ({ page, request }) => {
  const station = await fetchHostStation(request);
  await page.goto("/login");
  await confirmAgeIfAsked(page, station);
  await page.getByLabel("E-mail").fill(MEMBER_EMAIL);
  await page.getByLabel("Senha").fill("Membro123");
  await page.getByRole("button", { name: "Entrar" }).click();
  await expect(page).toHaveURL(/\/homepage$/);

  await page.goto("/ops");
  await expect(page.getByRole("heading", { name: "Erro 403" })).toBeVisible();
  await expect(page.getByText("Acesso restrito à equipe de suporte.")).toBeVisible();
});

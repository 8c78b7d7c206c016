import { expect, test } from "@playwright/test";
import { confirmAgeIfAsked, fetchHostStation } from "./demo-station";
import { waitForMail } from "./mailbox";

const PASSWORD = "Cadastro123";

// The whole way in on the demo station (public, multi-step): e-mail, password, the code of
// the activation e-mail, login, then the onboarding wizard up to the member area.
test("a visitor signs up, activates with the e-mailed code, logs in and completes the onboarding", async ({
  page,
  request,
}) => {
  const station = await fetchHostStation(request);
  const email = `cadastro-${Date.now()}@exemplo.com.br`;

  await page.goto("/cadastrar");
  await confirmAgeIfAsked(page, station);
  await expect(page.getByRole("heading", { name: "Cadastre-se" })).toBeVisible();

  const proceed = page.getByRole("button", { name: "Continuar" });
  await page.getByLabel("Nome completo").fill("Pessoa de Teste");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Telefone").fill("11987654321");
  await expect(proceed).toBeDisabled();
  await page.getByRole("checkbox", { name: /Li e aceito os Termos de uso/ }).check();
  await proceed.click();

  await expect(page.getByRole("heading", { name: "Crie a sua senha" })).toBeVisible();
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
  await expect(page.getByRole("heading", { name: "Boas-vindas!" })).toBeVisible();
  await page.getByRole("button", { name: "Começar" }).click();
  await page.getByRole("button", { name: "Pular" }).click();

  await expect(page.getByRole("heading", { name: "Seus dados" })).toBeVisible();
  await expect(page.getByLabel("Nome completo")).toHaveValue("Pessoa de Teste");
  await page.getByLabel("Data de nascimento").fill("05031990");
  await page.getByLabel("Cidade").fill("São Paulo");
  await page.getByLabel("Estado").selectOption("SP");
  await page.getByRole("button", { name: "Continuar" }).click();

  await expect(page.getByRole("heading", { name: "Tudo pronto!" })).toBeVisible();
  await page.getByRole("button", { name: "Ir para o início" }).click();

  await expect(page).toHaveURL(/\/homepage$/);
  await expect(page.getByRole("heading", { name: "Olá, Pessoa de Teste!" })).toBeVisible();
});

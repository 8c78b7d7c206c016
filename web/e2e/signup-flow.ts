import { expect, type Page } from "@playwright/test";
import { confirmAgeIfAsked, type StationFlags } from "./demo-station";
import { waitForMail } from "./mailbox";

export interface NewMember {
  name: string;
  email: string;
  password: string;
}

/**
 * The whole way in on a public multi-step station, checking each step: /cadastrar (name,
 * e-mail, phone, terms; then the password), the 6-digit code of the activation e-mail on
 * /confirmacao, login, and the onboarding wizard up to the member area (/homepage).
 */
export async function signUpAndActivate(page: Page, station: StationFlags, member: NewMember): Promise<void> {
  const { name, email, password } = member;

  await page.goto("/cadastrar");
  await confirmAgeIfAsked(page, station);
  await expect(page.getByRole("heading", { name: "Cadastre-se" })).toBeVisible();

  const proceed = page.getByRole("button", { name: "Continuar" });
  await page.getByLabel("Nome completo").fill(name);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Telefone").fill("11987654321");
  await expect(proceed).toBeDisabled();
  await page.getByRole("checkbox", { name: /Li e aceito os Termos de uso/ }).check();
  await proceed.click();

  await expect(page.getByRole("heading", { name: "Crie a sua senha" })).toBeVisible();
  await page.getByLabel("Senha", { exact: true }).fill(password);
  await page.getByLabel("Confirme a senha").fill(password);
  await page.getByRole("button", { name: "Cadastrar" }).click();

  await expect(page).toHaveURL(new RegExp(`/confirmacao/${encodeURIComponent(email)}$`));
  const mail = await waitForMail({ to: email });
  const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
  expect(code, "the activation e-mail carries a 6-digit code").toBeDefined();
  await page.getByLabel("Código de verificação").fill(code ?? "");
  await page.getByRole("button", { name: "Validar código" }).click();

  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Senha").fill(password);
  await page.getByRole("button", { name: "Entrar" }).click();

  await expect(page).toHaveURL(/\/signup$/);
  await expect(page.getByRole("heading", { name: "Boas-vindas!" })).toBeVisible();
  await page.getByRole("button", { name: "Começar" }).click();
  await page.getByRole("button", { name: "Pular" }).click();

  await expect(page.getByRole("heading", { name: "Seus dados" })).toBeVisible();
  await expect(page.getByLabel("Nome completo")).toHaveValue(name);
  await page.getByLabel("Data de nascimento").fill("05031990");
  await page.getByLabel("Cidade").fill("São Paulo");
  await page.getByLabel("Estado").selectOption("SP");
  await page.getByRole("button", { name: "Continuar" }).click();

  await expect(page.getByRole("heading", { name: "Tudo pronto!" })).toBeVisible();
  await page.getByRole("button", { name: "Ir para o início" }).click();
  await expect(page).toHaveURL(/\/homepage$/);
}

import { expect, type Page } from "@playwright/test";

/**
 * Fills the subscription screens' new-card form (card and billing address); the CEP first,
 * as its lookup (offline here) writes the street. The sandbox decides by the number's last
 * four digits what charges of the card do (payments/src/sandbox.rs).
 */
export async function fillNewCard(page: Page, number = "4111 1111 1111 1111") {
  await page.getByLabel("CEP").fill("01310100");
  await expect(page.getByLabel("Rua")).not.toHaveValue("");
  await page.getByLabel("Número do cartão").fill(number);
  await page.getByLabel("Nome impresso no cartão").fill("Pessoa Assinante");
  await page.getByLabel("Validade (MM/AA)").fill("12/30");
  await page.getByLabel("CVV").fill("123");
  await page.getByLabel("CPF do titular").fill("529.982.247-25");
  await page.getByLabel("Data de nascimento").fill("09/03/1990");
  await page.getByLabel("Telefone").fill("11987654321");
  await page.getByLabel("Rua").fill("Avenida Paulista");
  await page.getByLabel("Número", { exact: true }).fill("1000");
  await page.getByLabel("Bairro").fill("Bela Vista");
  await page.getByLabel("Estado").selectOption("SP");
  await page.getByLabel("Cidade").fill("São Paulo");
}

import { expect, test } from "@playwright/test";
import { confirmAgeIfAsked, fetchHostStation } from "./demo-station";
import { waitForMail } from "./mailbox";

const FIRST_PASSWORD = "Primeira123";
const NEW_PASSWORD = "NovaSenha456";

test("a member asks for a reset link, sets a new password from the e-mail and logs in with it", async ({
  page,
  request,
}) => {
  const station = await fetchHostStation(request);
  // An account of its own, so this test never changes what other tests log in with.
  const email = `recuperacao-${Date.now()}@e2e.filia.com.br`;
  const signUp = await request.post("/api/auth/signup-participant", {
    data: {
      email,
      cpf: null,
      name: "Rita Recuperação",
      tel: "(11) 98888-7777",
      password: FIRST_PASSWORD,
      password_confirmation: FIRST_PASSWORD,
      station_id: station.id,
    },
  });
  expect(signUp.status(), await signUp.text()).toBe(201);

  await page.goto("/login");
  await confirmAgeIfAsked(page, station);
  await page.getByRole("link", { name: "Esqueci minha senha" }).click();
  await expect(page).toHaveURL(/\/esqueci-minha-senha$/);
  const send = page.getByRole("button", { name: "Enviar" });
  await expect(send).toBeDisabled();
  await page.getByLabel("E-mail").fill(email);
  await send.click();
  await expect(page.getByText("Sucesso! Verifique sua caixa de e-mails")).toBeVisible();

  const mail = await waitForMail({ to: email, subject: "Redefinição de senha" });
  const resetPath = /\/redefinir-senha\/[^\s"'<>)]+/.exec(mail.text)?.[0];
  expect(resetPath, mail.text).toBeDefined();
  await page.goto(resetPath as string);

  await expect(page.getByRole("heading", { name: "Redefinir senha" })).toBeVisible();
  await page.getByLabel("Nova senha", { exact: true }).fill(NEW_PASSWORD);
  await page.getByLabel("Confirme a nova senha").fill("Diferente789");
  await page.getByRole("button", { name: "Salvar nova senha" }).click();
  await expect(page.getByText("As senhas não conferem.")).toBeVisible();
  await page.getByLabel("Confirme a nova senha").fill(NEW_PASSWORD);
  await page.getByRole("button", { name: "Salvar nova senha" }).click();

  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText("Sucesso! Você já pode logar com a nova senha")).toBeVisible();

  // The old password no longer opens the account; the new one does (the reset also
  // activated it, since the link proved the e-mail). A fresh account has not done its
  // briefing yet, so the login leads to the onboarding wizard.
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Senha").fill(NEW_PASSWORD);
  await page.getByRole("button", { name: "Entrar" }).click();
  await expect(page).toHaveURL(/\/signup$/);

  const oldLogin = await request.post(`/api/auth/login/establishment/${station.id}`, {
    data: { email, password: FIRST_PASSWORD },
  });
  expect(oldLogin.status()).toBe(401);
});

test("a used reset link is refused with the server's message", async ({ page, request }) => {
  const station = await fetchHostStation(request);
  await page.goto("/redefinir-senha/link-que-nao-existe/ninguem%40e2e.filia.com.br");
  await confirmAgeIfAsked(page, station);

  await page.getByLabel("Nova senha", { exact: true }).fill(NEW_PASSWORD);
  await page.getByLabel("Confirme a nova senha").fill(NEW_PASSWORD);
  await page.getByRole("button", { name: "Salvar nova senha" }).click();

  const notifications = page.getByRole("region", { name: "Notificações" });
  await expect(notifications.getByText("Link de redefinição inválido ou expirado. Solicite um novo.")).toBeVisible();
  await expect(page).toHaveURL(/\/redefinir-senha\//);
});

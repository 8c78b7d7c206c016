import { expect, test } from "@playwright/test";
import { confirmAgeIfAsked, fetchHostStation } from "./demo-station";
import { waitForMail } from "./mailbox";

test("a visitor writes to support on /suporte and both e-mails arrive", async ({ page, request }) => {
  const station = await fetchHostStation(request);
  const answer = await request.get(`/api/stations/${station.id}`);
  const { contact_mail: contactMail } = (await answer.json()) as { contact_mail: string | null };
  // An address and a subject of this run's own, so earlier runs' mail cannot match.
  const run = Date.now();
  const email = `suporte-${run}@e2e.filia.com.br`;
  const subject = `Cartão de sócio ${run}`;

  await page.goto("/suporte");
  await confirmAgeIfAsked(page, station);
  await expect(page.getByRole("heading", { level: 1, name: "Fale conosco" })).toBeVisible();
  await page.getByLabel("Nome").fill("Vera Visitante");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Telefone").fill("11987654321");
  await page.getByLabel("Assunto").fill(subject);
  await page.getByLabel("Mensagem").fill("Como faço para receber meu cartão de sócio?");
  await page.getByRole("button", { name: "Enviar" }).click();

  await expect(page.getByText("Operação realizada com sucesso")).toBeVisible();
  await expect(page).toHaveURL(/\/$/);

  const received = await waitForMail({ to: email, subject: "Recebemos sua mensagem" });
  expect(received.text).toContain(subject);
  if (contactMail) {
    const toStation = await waitForMail({ to: contactMail, subject });
    expect(toStation.text).toContain(email);
    expect(toStation.text).toContain("Como faço para receber meu cartão de sócio?");
  }
});

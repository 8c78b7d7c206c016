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
  await page.getByRole("dialog", { name: "Aviso de cookies" }).getByRole("button", { name: "Aceito" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Fale conosco" })).toBeVisible();
  await page.getByLabel("Nome").fill("Vera Visitante");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Telefone").fill("11987654321");
  await page.getByLabel("Assunto").fill(subject);
  await page.getByLabel("Mensagem").fill("Como faço para receber meu cartão de sócio?");
  await page.getByRole("button", { name: "Enviar" }).click();

  await expect(page.getByText("Operação realizada com sucesso")).toBeVisible();
  await expect(page).toHaveURL(/\/$/);

  // The acknowledgement carries none of the sender's words (anyone may give any address).
  const received = await waitForMail({ to: email, subject: "Recebemos sua mensagem" });
  expect(received.text).toMatch(/protocolo nº \d+/);
  expect(received.text).not.toContain(subject);
  if (contactMail) {
    const toStation = await waitForMail({ to: contactMail, subject });
    expect(toStation.text).toContain(email);
    expect(toStation.text).toContain("Como faço para receber meu cartão de sócio?");
  }
});

test("a visitor scrolls the landing to its support section and the message arrives", async ({ page, request }) => {
  const station = await fetchHostStation(request);
  const run = Date.now();
  const email = `landing-${run}@e2e.filia.com.br`;
  const subject = `Dúvida pela página inicial ${run}`;

  await page.goto("/");
  await confirmAgeIfAsked(page, station);
  await page.getByRole("dialog", { name: "Aviso de cookies" }).getByRole("button", { name: "Aceito" }).click();
  // The section's form loads only as it nears the viewport.
  const section = page.getByRole("region", { name: "Fale conosco" });
  await section.scrollIntoViewIfNeeded();
  await section.getByLabel("Nome").fill("Vera Visitante");
  await section.getByLabel("E-mail").fill(email);
  await section.getByLabel("Assunto").fill(subject);
  await section.getByLabel("Mensagem").fill("Vocês têm estacionamento na sede?");
  await section.getByRole("button", { name: "Enviar" }).click();

  await expect(page.getByText("Operação realizada com sucesso")).toBeVisible();
  // The acknowledgement carries none of the sender's words (anyone may give any address).
  const received = await waitForMail({ to: email, subject: "Recebemos sua mensagem" });
  expect(received.text).toMatch(/protocolo nº \d+/);
  expect(received.text).not.toContain(subject);
});

import { expect, test } from "@playwright/test";
import { logIn, memberApi } from "./demo-member";
import { confirmAgeIfAsked, DEMO_STATION_NAME, fetchHostStation } from "./demo-station";
import { waitForMail } from "./mailbox";

// The demo's type 19 activity and the demo member's invitees (domain/src/infra/demo/
// activities.rs and invitations.rs); the invitee's points are the demo offer's 50.
const INVITE_ACTIVITY = "Indique e ganhe";
const CATEGORY = "Comunidade";
const DEMO_INVITEES = ["João Pereira", "Lúcia Andrade"];

test("the demo member invites two addresses, both e-mails arrive with the invite link, then opens 'Meus convites'", async ({
  page,
  request,
}) => {
  const station = await fetchHostStation(request);
  const member = await memberApi(request, station);
  // Addresses of this run only, so a repeat is never skipped as already invited.
  const run = Date.now();
  const addresses = [`amiga-${run}@e2e.filia.com.br`, `amigo-${run}@e2e.filia.com.br`];
  await logIn(page, station);

  await page
    .getByRole("region", { name: CATEGORY })
    .getByRole("link", { name: new RegExp(`^${INVITE_ACTIVITY}`) })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: INVITE_ACTIVITY })).toBeVisible();
  const linkField = page.getByLabel("Seu link de convite");
  await expect(linkField).toHaveValue(new RegExp(`/cadastrar/[A-Z0-9]{8}-U${member.id}-E${station.id}$`));
  const link = await linkField.inputValue();

  await page.getByLabel("E-mail do convidado 1").fill(addresses[0]);
  await page.getByRole("button", { name: "Adicionar e-mail" }).click();
  await page.getByLabel("E-mail do convidado 2").fill("sem-arroba");
  await page.getByRole("button", { name: "Indicar amigos" }).click();
  await expect(page.getByText("Email inválido")).toBeVisible();
  await page.getByLabel("E-mail do convidado 2").fill(addresses[1]);
  await page.getByRole("button", { name: "Indicar amigos" }).click();

  const notifications = page.getByRole("region", { name: "Notificações" });
  await expect(notifications.getByText("Operação realizada com sucesso")).toBeVisible();
  let unsubscribeLink = "";
  for (const to of addresses) {
    const mail = await waitForMail({ to, subject: "convidou você" });
    expect(mail.subject).toContain(DEMO_STATION_NAME);
    expect(mail.text).toContain(link);
    expect(mail.text).toContain("ganhe 50 pontos");
    expect(mail.html).toContain(link);
    unsubscribeLink = /https?:\/\/\S+\/convites\/descadastrar\?\S+/.exec(mail.text)?.[0] ?? "";
    expect(unsubscribeLink).not.toBe("");
  }

  // The second addressee asks for no more invitations, from the e-mail's link.
  const { pathname, search } = new URL(unsubscribeLink);
  const visitor = await page.context().browser()?.newContext();
  const visitorPage = await visitor?.newPage();
  if (!visitorPage) throw new Error("no browser for the addressee");
  await visitorPage.goto(`${pathname}${search}`);
  await confirmAgeIfAsked(visitorPage, station);
  await visitorPage.getByRole("button", { name: "Não quero receber convites" }).click();
  await expect(visitorPage.getByText("Pronto: este endereço não receberá mais convites deste programa.")).toBeVisible();
  await visitor?.close();

  await page.goto("/homepage/convites-do-usuario");
  const table = page.getByRole("table", { name: "Meus convites" });
  await expect(table.getByRole("columnheader", { name: "Nome" })).toBeVisible();
  await expect(table.getByRole("columnheader", { name: "Data" })).toBeVisible();
  for (const name of DEMO_INVITEES) await expect(table.getByRole("cell", { name })).toBeVisible();
  await page.getByRole("searchbox", { name: "Pesquisar por nome" }).fill("lucia");
  await expect(table.getByRole("cell", { name: "Lúcia Andrade" })).toBeVisible();
  await expect(table.getByRole("cell", { name: "João Pereira" })).toHaveCount(0);
});

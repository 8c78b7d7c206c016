import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { logIn } from "./demo-member";
import { STAFF_EMAIL, STAFF_PASSWORD } from "./demo-staff";
import { confirmAgeIfAsked, DEMO_STATION_NAME, fetchHostStation } from "./demo-station";

// Legal consultancy end to end (issue 31): the demo member asks for an appointment at
// /homepage/consultoria-juridica/agendamentos, the demo station's support staff confirm it
// in the console's 'Atendimento' five days ahead at 10:00 (the station's clock) with the
// demo office (seed/src/demo/services.rs), the member sees it among the upcoming ones and
// cancels it (more than 48 hours ahead). Both pages pass axe (WCAG 2.1 AA).
const APPOINTMENTS_PATH = "/homepage/consultoria-juridica/agendamentos";
const DEMO_OFFICE = "Alves & Lima Advogados";
const WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

async function expectAccessible(page: Page) {
  await page.waitForLoadState("networkidle");
  await expect(page.locator("[aria-busy=true]")).toHaveCount(0);
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_21_AA).analyze();
  expect(violations.map((violation) => ({ rule: violation.id, targets: violation.nodes.map((node) => node.target.join(" ")) }))).toEqual([]);
}

/** The day `days` from now on the station's clock, as the date input takes it and as the member's page shows it. */
function dayAhead(timeZone: string, days: number): { iso: string; shown: string } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" })
      .formatToParts(new Date(Date.now() + days * 86_400_000))
      .map((part) => [part.type, part.value]),
  );
  return { iso: `${parts.year}-${parts.month}-${parts.day}`, shown: `${parts.day}/${parts.month}/${parts.year}` };
}

test("a legal appointment: the member asks, staff confirm it in the console, the member cancels it", async ({ browser, page, request }) => {
  test.setTimeout(120_000);
  const station = await fetchHostStation(request);
  const answer = await request.get(`/api/stations/${station.id}`);
  const { time_zone: timeZone } = (await answer.json()) as { time_zone: string };
  // A description of this run's own, so earlier runs' requests cannot match.
  const description = `Dúvida sobre férias (teste ${Date.now()})`;
  const day = dayAhead(timeZone, 5);

  // The member asks.
  await page.addInitScript(() => window.localStorage.setItem("filia.cookie-consent", new Date().toISOString()));
  await logIn(page, station);
  await page.goto(APPOINTMENTS_PATH);
  await expect(page.getByRole("heading", { level: 1, name: "Agendamentos" })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("button", { name: "Solicitar agendamento" }).click();
  const requestDialog = page.getByRole("dialog", { name: "Solicitar agendamento" });
  await requestDialog.getByRole("combobox").selectOption("Quarta-feira");
  await requestDialog.getByRole("textbox").fill(description);
  await requestDialog.getByRole("button", { name: /Enviar/ }).click();
  await expect(requestDialog.getByText("Sua solicitação foi realizada com sucesso!")).toBeVisible();
  await expect(requestDialog.getByText("Em breve entraremos em contato para confirmar os horários disponíveis.")).toBeVisible();
  await expectAccessible(page);
  await page.keyboard.press("Escape");
  await expect(requestDialog).toHaveCount(0);
  const requested = page.getByRole("article").filter({ hasText: description });
  await expect(requested).toContainText("Aguardando confirmação");

  // Staff, in a browser of their own, confirm it at the desk.
  const staffContext = await browser.newContext();
  await staffContext.addInitScript(() => window.localStorage.setItem("filia.cookie-consent", new Date().toISOString()));
  const staff = await staffContext.newPage();
  await staff.goto("/login");
  await confirmAgeIfAsked(staff, station);
  await staff.getByLabel("E-mail").fill(STAFF_EMAIL);
  await staff.getByLabel("Senha").fill(STAFF_PASSWORD);
  await staff.getByRole("button", { name: "Entrar" }).click();
  await expect(staff).toHaveURL(/\/homepage$/);
  await staff.goto("/ops");
  await staff.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Atendimento" }).click();
  await expect(staff).toHaveURL(/\/ops\/desk$/);
  await staff.getByRole("region", { name: DEMO_STATION_NAME }).getByRole("link", { name: "Consultoria jurídica" }).click();
  await expect(staff.getByRole("heading", { level: 1, name: `Consultoria jurídica · ${DEMO_STATION_NAME}` })).toBeVisible();
  await expect(staff.getByRole("tab", { name: "Solicitações" })).toHaveAttribute("aria-selected", "true");

  const atDesk = staff.getByRole("article").filter({ hasText: description });
  await expect(atDesk).toContainText("Aguardando confirmação");
  await expect(atDesk).toContainText("Quarta-feira");
  await expectAccessible(staff);
  await atDesk.getByRole("button", { name: "Confirmar" }).click();
  const confirmDialog = staff.getByRole("dialog", { name: /^Confirmar o agendamento \d+$/ });
  await confirmDialog.getByLabel("Data").fill(day.iso);
  await confirmDialog.getByLabel("Horário").fill("10:00");
  await confirmDialog.getByLabel("Escritório").selectOption({ label: DEMO_OFFICE });
  await expectAccessible(staff);
  await confirmDialog.getByRole("button", { name: "Confirmar agendamento" }).click();
  await expect(staff.getByText("Agendamento confirmado.")).toBeVisible();
  await expect(confirmDialog).toHaveCount(0);
  await expect(atDesk).toContainText("Agendado");
  await expect(atDesk).toContainText(`${day.shown} 10:00`);
  await expect(atDesk).toContainText(DEMO_OFFICE);

  // The member sees it upcoming, on the station's clock, and cancels it.
  await page.reload();
  const upcoming = page.getByRole("list", { name: "Próximos atendimentos" }).getByRole("article").filter({ hasText: description });
  await expect(upcoming).toContainText("Agendado");
  await expect(upcoming).toContainText(`${day.shown} às 10:00`);
  await expect(upcoming).toContainText(DEMO_OFFICE);
  await expectAccessible(page);
  await upcoming.getByRole("button", { name: "Cancelar" }).click();
  await page.getByRole("dialog", { name: "Cancelar agendamento" }).getByRole("button", { name: /^Sim/ }).click();
  await expect(page.getByText("Agendamento cancelado com sucesso!")).toBeVisible();

  // The desk sees who cancelled it.
  await staff.reload();
  await expect(atDesk).toContainText("Cancelado");
  await expect(atDesk).toContainText("Membro");
  await expect(atDesk.getByRole("button")).toHaveCount(0);
  await staffContext.close();
});

// The legal landing's carousel: the category the demo station chose for its legal desk
// (seed/src/demo/services.rs), its first activity on the first slide. Asking for reduced
// motion holds the carousel still, so the slide is still there when it is looked for.
test("the legal landing shows the carousel of the desk's activity category", async ({ page, request }) => {
  const station = await fetchHostStation(request);
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.addInitScript(() => window.localStorage.setItem("filia.cookie-consent", new Date().toISOString()));
  await logIn(page, station);
  await page.goto("/homepage/consultoria-juridica");
  await expect(page.getByRole("heading", { level: 1, name: "Consultoria Jurídica" })).toBeVisible();
  const carousel = page.getByRole("region", { name: "Direitos em foco" });
  await expect(page.getByRole("heading", { level: 2, name: "Direitos em foco" })).toBeVisible();
  await expect(carousel.getByRole("link", { name: /Quiz: saúde no trabalho/ })).toBeVisible();
  await expectAccessible(page);
});

import { expect, test, type Page } from "@playwright/test";
import { earnedCents, logIn, memberApi } from "./demo-member";
import { fetchHostStation } from "./demo-station";

// The demo's quiz and survey (domain/src/infra/demo/research.rs). The server never sends
// the quiz's answer key: the test learns it from the verdicts, as a member would. Runs
// after activities.spec.ts (files run in order, one worker), whose gated activity needs
// these two not done yet.
const QUIZ = "Quiz: conheça seus direitos";
const QUIZ_QUESTIONS = 3;
/** The quiz's points, and what it credits: points plus additional cashback, in centavos. */
const QUIZ_POINTS = 30;
const QUIZ_CREDIT_CENTS = 4000;
const SURVEY = "Pesquisa de satisfação 2026";
/** What the demo quiz's questions say to a wrong answer. */
const WRONG_MESSAGE = "Não é essa. Tente outra resposta!";
/** The trophy the first quiz won earns (domain/src/infra/demo/trophies.rs). */
const FIRST_QUIZ_WON = "Primeira vitória no quiz";


/** From the quiz list to the quiz's first question. */
async function startQuiz(page: Page) {
  await page.goto("/homepage/quizzes");
  const card = page.getByRole("article").filter({ has: page.getByRole("heading", { name: QUIZ }) });
  await card.getByRole("link", { name: "Participar", exact: true }).click();
  await expect(page).toHaveURL(/\/homepage\/quizzes\/quiz\?research=\d+&action=\d+$/);
  await expect(page.getByRole("heading", { level: 1, name: QUIZ })).toBeVisible();
  await expect(page.getByText(`${QUIZ_QUESTIONS} perguntas`)).toBeVisible();
  await page.getByRole("button", { name: "Iniciar Quiz" }).click();
}

/** Chooses an option of the question shown and says whether the server found it right. */
async function choose(page: Page, label: string): Promise<boolean> {
  const option = page.locator("fieldset").getByRole("button", { name: label, exact: true });
  const saved = page.waitForResponse(
    (response) =>
      response.request().method() === "PUT" && /\/api\/research\/\d+\/answers\/\d+$/.test(new URL(response.url()).pathname),
  );
  await option.click();
  const answer = await saved;
  expect(answer.ok()).toBe(true);
  const { verdict } = (await answer.json()) as { verdict: { correct: boolean } | null };
  const next = page.getByRole("button", { name: "Próxima" });
  // Right locks every option and offers 'Próxima'; wrong disables the one chosen.
  await expect(option).toBeDisabled();
  if (verdict?.correct === true) {
    await expect(next).toBeVisible();
    return true;
  }
  await expect(page.getByText(WRONG_MESSAGE)).toBeVisible();
  await expect(next).toHaveCount(0);
  return false;
}

/** The question shown's options, in order. */
async function optionsShown(page: Page): Promise<string[]> {
  return (await page.locator("fieldset").getByRole("button").allTextContents()).map((label) => label.trim());
}

test("the demo member takes the quiz from the quiz list, wins its points, then answers the survey", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const station = await fetchHostStation(request);
  const member = await memberApi(request, station);
  // The cookie notice, accepted beforehand, stays out of the way of the dialogs.
  await page.addInitScript(() => window.localStorage.setItem("filia.cookie-consent", new Date().toISOString()));
  await logIn(page, station);

  // A first play learns each question's right option by trying them in order: every try
  // before it is wrong, disabled, and counts against the score (the first try is scored).
  await startQuiz(page);
  const key: { right: string; wrong: string }[] = [];
  let rightAtFirstTry = 0;
  for (let position = 1; position <= QUIZ_QUESTIONS; position += 1) {
    await expect(page.getByText(`Pergunta ${position} de ${QUIZ_QUESTIONS}`)).toBeVisible();
    const labels = await optionsShown(page);
    let right: string | undefined;
    for (const label of labels) {
      if (await choose(page, label)) {
        right = label;
        break;
      }
    }
    expect(right).toBeDefined();
    if (right === labels[0]) rightAtFirstTry += 1;
    key.push({ right: right ?? "", wrong: labels.find((label) => label !== right) ?? "" });
    await page.getByRole("button", { name: "Próxima" }).click();
  }
  await expect(page.getByRole("heading", { name: "Resultado" })).toBeVisible();
  await expect(page.getByText(`${rightAtFirstTry} de ${QUIZ_QUESTIONS}`, { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "As que errei" }).click();
  await expect(page.getByRole("list", { name: "Perguntas" }).getByRole("listitem")).toHaveCount(
    QUIZ_QUESTIONS - rightAtFirstTry,
  );
  await page.getByRole("button", { name: "Finalizar!" }).click();
  const firstDialog = page.getByRole("dialog");
  await expect(firstDialog).toBeVisible();
  await firstDialog.getByRole("link", { name: "Página inicial" }).click();
  await expect(page).toHaveURL(/\/homepage$/);

  // The second play: the first question wrong, then right; the others right at once, so
  // two of three are right at the first try and the member wins.
  const before = await earnedCents(request, member);
  await startQuiz(page);
  for (const [index, { right, wrong }] of key.entries()) {
    await expect(page.getByText(`Pergunta ${index + 1} de ${QUIZ_QUESTIONS}`)).toBeVisible();
    if (index === 0) expect(await choose(page, wrong)).toBe(false);
    expect(await choose(page, right)).toBe(true);
    await page.getByRole("button", { name: "Próxima" }).click();
  }
  await expect(page.getByText(`${QUIZ_QUESTIONS - 1} de ${QUIZ_QUESTIONS}`, { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Finalizar!" }).click();
  await expect(page.getByText(`Parabéns, você completou o Quiz e ganhou ${QUIZ_POINTS} pontos`)).toBeVisible();
  const winDialog = page.getByRole("dialog", { name: QUIZ });
  await expect(winDialog).toBeVisible();
  await winDialog.getByRole("link", { name: "Página inicial" }).click();
  await expect(page).toHaveURL(/\/homepage$/);

  // The points.credit job credits the win shortly after; it waits for the station's
  // release (pending) before the header's balance, which is what may be spent, shows it.
  await expect.poll(() => earnedCents(request, member), { timeout: 30_000 }).toBeGreaterThanOrEqual(
    before + QUIZ_CREDIT_CENTS,
  );
  await page.goto("/homepage/extrato/extratos-totais");
  await page.getByRole("tab", { name: "Créditos de Premiação" }).click();
  await expect(page.getByRole("tabpanel").getByRole("listitem").filter({ hasText: QUIZ }).first()).toContainText(
    "40,00 Pontos",
  );
  // It reaches the header's balance when the station releases it: videos.spec.ts, the last
  // to run, releases it (shop.spec.ts needs the demo member's balance below a seat's price).

  // The win earns a trophy, granted by the participation's trophies.grant job.
  await expect
    .poll(
      async () => {
        await page.goto("/homepage/trofeus");
        await expect(page.getByRole("heading", { name: "Meus trofeus" })).toBeVisible();
        return page.getByText(FIRST_QUIZ_WON).count();
      },
      { timeout: 30_000 },
    )
    .toBeGreaterThan(0);
  await page.getByLabel("Pesquisar troféu").fill("vitoria");
  await expect(page.getByText(FIRST_QUIZ_WON)).toBeVisible();

  // The survey, from its activity's page: one step at a time to the end.
  await page.goto(`/homepage/search/${encodeURIComponent(SURVEY)}`);
  await page.getByRole("link", { name: new RegExp(`^${SURVEY}`) }).click();
  await expect(page.getByRole("heading", { level: 1, name: SURVEY })).toBeVisible();
  await page.getByRole("link", { name: "Participar", exact: true }).click();
  await expect(page).toHaveURL(/\/homepage\/survey\/\d+\/\d+$/);

  await expect(page.getByText("1 de 3", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Próximo" }).click();
  await expect(page.getByText("Esse campo é obrigatório")).toBeVisible();
  await page.getByRole("checkbox", { name: "Ótimo" }).check();
  await page.getByRole("checkbox", { name: "Bom" }).click();
  await expect(page.getByText("Apenas uma opção por pergunta")).toBeVisible();
  await expect(page.getByRole("checkbox", { name: "Bom" })).not.toBeChecked();
  await page.getByRole("button", { name: "Próximo" }).click();

  await expect(page.getByText("2 de 3", { exact: true })).toBeVisible();
  await page.getByRole("checkbox", { name: "Eventos e palestras" }).check();
  await page.getByRole("checkbox", { name: "Loja do clube" }).check();
  await page.getByRole("button", { name: "Próximo" }).click();

  await expect(page.getByText("3 de 3", { exact: true })).toBeVisible();
  await page.getByLabel("O que podemos melhorar em 2027?").fill("Mais palestras à noite.");
  await expect(page.getByText("23/600")).toBeVisible();
  await page.getByRole("button", { name: "Enviar" }).click();

  await expect(page.getByText("Operação realizada com sucesso")).toBeVisible();
  const surveyDialog = page.getByRole("dialog", { name: SURVEY });
  await expect(surveyDialog).toBeVisible();
  await surveyDialog.getByRole("link", { name: "Página inicial" }).click();
  await expect(page).toHaveURL(/\/homepage$/);
});

import { expect, test, type Page } from "@playwright/test";
import { confirmAgeIfAsked, fetchHostStation } from "./demo-station";
import { signUpAndActivate } from "./signup-flow";

// The demo station's plans (seed/src, issue 28): 'Essencial' monthly, 'Família' semiannual
// and highlighted, 'Empresarial' 'A negociar'. A member signed up for the test buys
// 'Essencial' with a new card at the payments sandbox (the browser tokenises it), sees it
// as their plan and in 'Minhas assinaturas', then cancels it.
const PLAN = "Essencial";
const HIGHLIGHTED = "Família";
const NEGOTIATED = "Empresarial";

const cardOf = (page: Page, name: string) => page.getByRole("article", { name });

/** The card and billing fields; the CEP first, as its lookup (offline here) writes the street. */
async function fillNewCard(page: Page, number = "4111 1111 1111 1111") {
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

test("a new member buys a plan with a new card, sees it as their plan, saves another card and makes it the plan's, and cancels", async ({ page, request }) => {
  test.setTimeout(120_000);
  const station = await fetchHostStation(request);
  await page.addInitScript(() => window.localStorage.setItem("filia.cookie-consent", new Date().toISOString()));
  const email = `assinante-${Date.now()}@exemplo.com.br`;
  await signUpAndActivate(page, station, { name: "Pessoa Assinante", email, password: "Assina123" });

  await page.getByRole("button", { name: "Menu" }).click();
  await page.getByRole("navigation", { name: "Menu principal" }).getByRole("link", { name: "Planos" }).click();
  await expect(page).toHaveURL(/\/homepage\/planos$/);
  const card = (name: string) => cardOf(page, name);
  await expect(card(HIGHLIGHTED).getByText("Mais popular")).toBeVisible();
  await expect(card(NEGOTIATED).getByText("A negociar")).toBeVisible();

  // Card numbers never reach our API: only the sandbox's tokeniser sees them.
  const sentToApi: string[] = [];
  page.on("request", (sent) => {
    if (sent.url().includes("/api/") && !sent.url().includes("/api/sandbox/card-tokens")) sentToApi.push(sent.postData() ?? "");
  });
  await card(PLAN).getByRole("link", { name: /Assinar/ }).click();
  await expect(page).toHaveURL(/\/homepage\/planos\/\d+\/comprar$/);
  await expect(page.getByText(/cancelar .*sem multa/)).toBeVisible();
  await fillNewCard(page);
  await page.getByRole("button", { name: "Realizar pagamento" }).click();

  await expect(page.getByRole("heading", { level: 1, name: "Pedido realizado com sucesso!" })).toBeVisible({ timeout: 20_000 });
  expect(sentToApi.join("\n")).not.toContain("4111111111111111");
  expect(sentToApi.join("\n")).not.toContain("4111 1111 1111 1111");

  await page.getByRole("link", { name: "Ver planos" }).click();
  await expect(card(PLAN).getByRole("button", { name: "Este é seu plano atual" })).toBeDisabled();
  await expect(card(HIGHLIGHTED).getByRole("link", { name: /Fazer (upgrade|downgrade)/ })).toBeVisible();
  await expect(page.getByRole("heading", { name: `Seu plano: ${PLAN}` })).toBeVisible();

  await page.goto("/homepage/assinaturas");
  await expect(page.getByRole("heading", { level: 1, name: "Minhas assinaturas" })).toBeVisible();
  const charges = page.getByRole("table", { name: "Cobranças" });
  await expect(charges.getByRole("row").nth(1)).toContainText(PLAN);
  await expect(charges.getByRole("row").nth(1)).toContainText("Pago");

  // Another card, kept for later ('Cadastrar novo cartão'), then made the plan's.
  await page.goto("/homepage/cartao-assinatura");
  await expect(page.getByRole("heading", { level: 1, name: "Cadastrar novo cartão" })).toBeVisible();
  await fillNewCard(page, "5555 4444 3333 1111");
  // The sandbox names brands in lower case, as its saved cards list them.
  await expect(page.getByTestId("card-preview")).toContainText("5555 •••• •••• 1111");
  await page.getByRole("button", { name: "Salvar cartão" }).click();
  await expect(page.getByText("Cartão salvo com sucesso")).toBeVisible();
  await page.goto("/homepage/planos/editar-pagamento");
  await page.getByLabel("Cartão", { exact: true }).selectOption({ label: "mastercard final 1111" });
  await page.getByRole("button", { name: "Salvar", exact: true }).click();
  await expect(page).toHaveURL(/\/homepage\/planos$/);
  await expect(page.getByText(/^Cartão: mastercard final 1111$/i)).toBeVisible();

  await page.getByRole("button", { name: "Cancelar plano" }).click();
  const dialog = page.getByRole("dialog", { name: "Cancelar plano" });
  await dialog.getByRole("radio", { name: "Não acho um bom custo-benefício" }).check();
  await dialog.getByRole("button", { name: "Confirmar cancelamento" }).click();
  await expect(page.getByText("Operação realizada com sucesso")).toBeVisible();
  await expect(page.getByText(/^Cancelado\. Ativo até \d{2}\/\d{2}\/\d{4}\.$/)).toBeVisible();
  await expect(page.getByRole("button", { name: "Cancelar plano" })).toHaveCount(0);
});

test("a visitor reads a plan's public page and is led to sign up", async ({ page, request }) => {
  const station = await fetchHostStation(request);
  const plans = await request.get("/api/subscription-plans");
  expect(plans.ok()).toBe(true);
  const plan = ((await plans.json()) as Array<{ id: number; name: string }>).find((each) => each.name === HIGHLIGHTED);
  expect(plan).toBeDefined();
  await page.addInitScript(() => window.localStorage.setItem("filia.cookie-consent", new Date().toISOString()));
  await page.goto(`/planos/${plan?.id ?? 0}`);
  await confirmAgeIfAsked(page, station);
  await expect(cardOf(page, HIGHLIGHTED).getByText("Mais popular")).toBeVisible();
  await cardOf(page, HIGHLIGHTED).getByRole("link", { name: "Cadastre-se" }).click();
  await expect(page).toHaveURL(/\/cadastrar$/);
});

// The demo's type 21 activity (seed/src/demo/subscriptions.rs): 'Livro do mês', monthly.
const BOOK_CLUB = "Clube do livro";

test("a new member subscribes to the book club from its page, sees the paid charge and cancels", async ({ page, request }) => {
  test.setTimeout(120_000);
  const station = await fetchHostStation(request);
  await page.addInitScript(() => window.localStorage.setItem("filia.cookie-consent", new Date().toISOString()));
  const email = `leitor-${Date.now()}@exemplo.com.br`;
  const password = "Leitor123";
  await signUpAndActivate(page, station, { name: "Pessoa Leitora", email, password });

  const login = await request.post(`/api/auth/login/establishment/${station.id}`, { data: { email, password } });
  expect(login.ok()).toBe(true);
  const { token } = (await login.json()) as { token: string };
  const found = await request.get(`/api/actions-by-name/?where[name]=${encodeURIComponent(BOOK_CLUB)}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(found.ok()).toBe(true);
  const bookClub = ((await found.json()) as Array<{ id: number; name: string }>).find((card) => card.name === BOOK_CLUB);
  expect(bookClub).toBeDefined();
  const actionId = bookClub?.id ?? 0;

  await page.goto(`/homepage/atividades/${actionId}`);
  const products = page.getByRole("group", { name: "Produto" });
  await expect(products).toBeVisible();
  await expect(page.getByRole("group", { name: "Recorrência" }).getByRole("radio", { name: /Mensal/ })).toBeChecked();
  await fillNewCard(page);
  await page.getByRole("button", { name: "Assinar" }).click();
  await expect(page.getByText("Por favor, selecione o produto para realizar a assinatura.")).toBeVisible();
  await products.getByRole("radio", { name: /Livro do mês/ }).check();
  await page.getByRole("button", { name: "Assinar" }).click();

  await expect(page).toHaveURL(new RegExp(`/homepage/assinaturas/${actionId}$`), { timeout: 20_000 });
  const group = page.getByRole("button", { name: new RegExp(`^${BOOK_CLUB}`) });
  await expect(group).toHaveAttribute("aria-expanded", "true");
  const row = page.getByRole("table", { name: "Cobranças" }).getByRole("row").nth(1);
  await expect(row).toContainText(BOOK_CLUB);
  await expect(row).toContainText("Pago");
  await expect(row).toContainText("Mensal");

  await page.getByRole("button", { name: `Cancelar assinatura de ${BOOK_CLUB}` }).click();
  await page.getByRole("dialog", { name: "Cancelar assinatura" }).getByRole("button", { name: "Confirmar cancelamento" }).click();
  await expect(page.getByText("Cancelamento de assinatura realizado com sucesso")).toBeVisible();
  await expect(page.getByText("Cancelada", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: `Cancelar assinatura de ${BOOK_CLUB}` })).toBeDisabled();
});

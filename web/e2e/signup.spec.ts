import { expect, test } from "@playwright/test";
import { fetchHostStation } from "./demo-station";
import { signUpAndActivate } from "./signup-flow";

// The whole way in on the demo station (public, multi-step): e-mail, password, the code of
// the activation e-mail, login, then the onboarding wizard up to the member area.
test("a visitor signs up, activates with the e-mailed code, logs in and completes the onboarding", async ({
  page,
  request,
}) => {
  const station = await fetchHostStation(request);
  const email = `cadastro-${Date.now()}@exemplo.com.br`;

  await signUpAndActivate(page, station, { name: "Pessoa de Teste", email, password: "Cadastro123" });

  await expect(page).toHaveURL(/\/homepage$/);
  await expect(page.getByRole("link", { name: /^Saldo / })).toBeVisible();
  const storedName = () => (JSON.parse(localStorage.getItem("filia.session") ?? "{}") as { user?: { name?: string } }).user?.name;
  expect(await page.evaluate(storedName)).toBe("Pessoa de Teste");
});

import { expect, type APIRequestContext, type Page } from "@playwright/test";
import { confirmAgeIfAsked, type StationFlags } from "./demo-station";

// The demo member (domain/src/infra/demo.rs), as the browser tests log in with it.
export const MEMBER_EMAIL = "membro@demo.filia.com.br";
export const MEMBER_PASSWORD = "Membro123";

/** Logs the demo member in through the login page, landing on /homepage. */
export async function logIn(page: Page, station: StationFlags) {
  await page.goto("/login");
  await confirmAgeIfAsked(page, station);
  await page.getByLabel("E-mail").fill(MEMBER_EMAIL);
  await page.getByLabel("Senha").fill(MEMBER_PASSWORD);
  await page.getByRole("button", { name: "Entrar" }).click();
  await expect(page).toHaveURL(/\/homepage$/);
}

/** The demo member's id and the headers of its own API session, for checks beside the page. */
export interface Member {
  id: number;
  headers: Record<string, string>;
}

export async function memberApi(request: APIRequestContext, station: StationFlags): Promise<Member> {
  const login = await request.post(`/api/auth/login/establishment/${station.id}`, {
    data: { email: MEMBER_EMAIL, password: MEMBER_PASSWORD },
  });
  expect(login.ok()).toBe(true);
  const { token, user } = (await login.json()) as { token: string; user: { id: number } };
  return { id: user.id, headers: { Authorization: `Bearer ${token}` } };
}

/** Everything the member has earned: spendable and waiting for the station's release. */
export async function earnedCents(request: APIRequestContext, member: Member): Promise<number> {
  const balance = await request.get(`/api/users-points/${member.id}`, { headers: member.headers });
  expect(balance.ok()).toBe(true);
  const { points_cents, pending_cents } = (await balance.json()) as { points_cents: number; pending_cents: number };
  return points_cents + pending_cents;
}

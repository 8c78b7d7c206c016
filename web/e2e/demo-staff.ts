import { expect, type APIRequestContext, type Page } from "@playwright/test";
import type { StationFlags } from "./demo-station";

// The demo station's support staff (domain/src/infra/demo.rs).
export const STAFF_EMAIL = "equipe@demo.filia.com.br";
export const STAFF_PASSWORD = "Equipe123";

/** Releases the station's due cashback now, as the console's button does, and waits for it. */
export async function releaseCashbackNow(request: APIRequestContext, station: StationFlags) {
  const login = await request.post(`/api/auth/login/establishment/${station.id}`, {
    data: { email: STAFF_EMAIL, password: STAFF_PASSWORD },
  });
  expect(login.ok()).toBe(true);
  const { token } = (await login.json()) as { token: string };
  const headers = { Authorization: `Bearer ${token}` };
  const released = await request.post(`/api/ops/stations/${station.id}/release`, { headers });
  expect(released.status()).toBe(202);
  const { job_id } = (await released.json()) as { job_id: string };
  await expect
    .poll(
      async () => {
        const job = await request.get(`/api/ops/jobs/${job_id}`, { headers });
        return ((await job.json()) as { state?: string }).state;
      },
      { timeout: 30_000 },
    )
    .toBe("succeeded");
}

/** The balance the member's header shows, in centavos ("Saldo 1.234,50 Pontos"). */
export async function headerBalanceCents(page: Page): Promise<number> {
  const text = (await page.getByRole("link", { name: /^Saldo / }).textContent()) ?? "";
  return Number(text.replace(/\D/g, ""));
}

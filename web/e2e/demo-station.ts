import { expect, type APIRequestContext, type Page } from "@playwright/test";

export const DEMO_STATION_NAME = "Clube Filia Demo";
export const DEMO_MAIN_COLOR_RGB = "rgb(14, 124, 102)";
export const AGE_QUESTION = "Você tem mais de 18 anos?";

export interface StationFlags {
  id: number;
  age_gate: boolean;
  has_majority_security: boolean;
}

/** The station the API serves for this host, read the way the app reads it. */
export async function fetchHostStation(request: APIRequestContext): Promise<StationFlags> {
  const config = await request.get("/api/config");
  expect(config.ok()).toBe(true);
  const { station_id } = (await config.json()) as { station_id: number };
  const station = await request.get(`/api/stations/${station_id}`);
  expect(station.ok()).toBe(true);
  return (await station.json()) as StationFlags;
}

/** Says "yes" to the age gate, for tests about something else. */
export async function confirmAgeIfAsked(page: Page, station: StationFlags): Promise<void> {
  if (!station.age_gate) return;
  await page.getByRole("dialog", { name: AGE_QUESTION }).getByRole("button", { name: "Sim, quero continuar" }).click();
}

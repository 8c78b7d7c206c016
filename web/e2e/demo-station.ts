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

/**
 * The demo's second station, every member-visible flag on (seed::demo::full_station), at
 * its own subdomain of this server: Chromium sends every *.localhost name to this machine,
 * and the API picks the station by the host's first label. Only the browser reaches it
 * (Node does not resolve *.localhost), so its tests use the page, not `request`.
 */
export const FULL_STATION_URL = (() => {
  const url = new URL(process.env.FILIA_E2E_URL ?? "http://127.0.0.1:8080");
  url.hostname = "completa.localhost";
  return url.origin;
})();
export const FULL_STATION_NAME = "Clube Filia Completo";
/** Its age gate is off: the login form is there at once. */
export const FULL_STATION: StationFlags = { id: 0, age_gate: false, has_majority_security: true };

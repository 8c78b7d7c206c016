// Deep links (spec 000 section 2): which device the page is on, the app address that opens
// the activity in the station's mobile app, and the store that has the app.
import type { Station } from "@/types/api";

export type DevicePlatform = "android" | "ios" | "desktop";

export interface DeepLinkTarget {
  resource: string;
  type: string;
  actionId: string;
}

/** Android and iOS devices open the app; anything else is treated as a desktop browser. */
export function detectPlatform(userAgent: string, maxTouchPoints: number): DevicePlatform {
  if (/android/i.test(userAgent)) return "android";
  if (/iphone|ipad|ipod/i.test(userAgent)) return "ios";
  // iPadOS presents itself as desktop Safari; only its touch screen tells it apart.
  if (/macintosh/i.test(userAgent) && maxTouchPoints > 1) return "ios";
  return "desktop";
}

/** Whether this station has an app that a deep link can open. */
export function stationHasApp(station: Station): boolean {
  return station.has_app && (station.domain ?? "").trim() !== "";
}

/** `{scheme}://{resource}/{type}/{actionId}`: the station's `domain` is its app's URL scheme. */
export function appUrl(scheme: string, { resource, type, actionId }: DeepLinkTarget): string {
  return `${scheme}://${[resource, type, actionId].map(encodeURIComponent).join("/")}`;
}

/** The web page of the same activity, for desktop browsers. */
export function webActivityPath(actionId: string): string {
  return `/homepage/atividades/${encodeURIComponent(actionId)}`;
}

export function storeLink(station: Station, platform: "android" | "ios"): string | null {
  return (platform === "ios" ? station.ios_link : station.android_link) || null;
}

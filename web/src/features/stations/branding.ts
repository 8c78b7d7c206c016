// Station branding applied to the document: colours and font as CSS variables on :root,
// the favicon and the page title.
import type { Station } from "@/types/api";

const FALLBACK_FONTS = '"Lato", system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
const LIGHT_TEXT = "#ffffff";
const DARK_TEXT = "#1a1d21";

/** White or near-black, whichever reads better on a #rrggbb background. */
export function readableTextColor(background: string): string {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(background.trim());
  if (!match) return LIGHT_TEXT;
  const [red, green, blue] = match.slice(1).map((hex) => {
    const channel = parseInt(hex, 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  const luminance = 0.2126 * red + 0.7152 * green + 0.0722 * blue;
  // The luminance at which white and black text have the same contrast ratio.
  return luminance > 0.179 ? DARK_TEXT : LIGHT_TEXT;
}

function fontStack(fontFamily: string): string {
  const name = fontFamily.replace(/["\\;]/g, "").trim();
  return name === "" ? FALLBACK_FONTS : `"${name}", ${FALLBACK_FONTS}`;
}

function setFavicon(href: string): void {
  let link = document.head.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (!link) {
    link = document.createElement("link");
    link.rel = "icon";
    document.head.append(link);
  }
  link.href = href;
}

export function applyStationBranding(station: Station): void {
  const root = document.documentElement.style;
  const main = station.main_brand_color;
  root.setProperty("--brand-main", main);
  root.setProperty("--brand-on-main", readableTextColor(main));
  root.setProperty("--brand-secondary", station.secondary_brand_color ?? main);
  root.setProperty("--brand-font", fontStack(station.font_family));
  if (station.favicon_image) setFavicon(station.favicon_image);
  document.title = station.name;
}

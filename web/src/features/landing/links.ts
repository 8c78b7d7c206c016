// Where a slide's or an item's button leads (spec 002 section 2, link_type): nolink (none),
// login (/login), signup (/cadastrar), additional (/sobre/{id}), external (the given URL,
// opened in a new tab; the API only stores http(s) addresses).
import type { LandingLinkType } from "@/types/api";

export interface LinkFields {
  link_type: LandingLinkType;
  external_link?: string | null;
  about_page_id?: number | null;
  button_label?: string | null;
}

export type LinkTarget = { href: string; external: boolean; label: string };

const DEFAULT_LABELS: Record<LandingLinkType, string> = {
  nolink: "",
  login: "Entrar",
  signup: "Cadastre-se",
  additional: "Saiba mais",
  external: "Saiba mais",
};

/** Only http(s) addresses leave the site, whatever is stored. */
function isHttpUrl(value: string): boolean {
  return /^https?:\/\/[^\s/?#]+/i.test(value);
}

/** The button's target, or null for no button. */
export function linkTarget(item: LinkFields): LinkTarget | null {
  const label = item.button_label?.trim() || DEFAULT_LABELS[item.link_type];
  switch (item.link_type) {
    case "login":
      return { href: "/login", external: false, label };
    case "signup":
      return { href: "/cadastrar", external: false, label };
    case "additional":
      return item.about_page_id == null ? null : { href: `/sobre/${item.about_page_id}`, external: false, label };
    case "external":
      return item.external_link && isHttpUrl(item.external_link)
        ? { href: item.external_link, external: true, label }
        : null;
    default:
      return null;
  }
}

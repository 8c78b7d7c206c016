// A desk news item's title and body are HTML (`title.rendered`, `content.rendered`).
import type { HtmlAllowList } from "@/components/safe-html";

/** What a news body may keep, as the station news' own list (domain::content::html). */
export const NEWS_HTML: HtmlAllowList = {
  tags: ["p", "br", "hr", "h2", "h3", "h4", "strong", "b", "em", "i", "u", "s", "small", "sub", "sup", "blockquote", "ul", "ol", "li", "a"],
  attributes: ["href", "title", "rel"],
};

/** The text of an HTML title ('Férias &amp; 13º' reads 'Férias & 13º'); never parsed into the page. */
export function plainText(html: string): string {
  return new DOMParser().parseFromString(html, "text/html").body.textContent?.trim() ?? "";
}

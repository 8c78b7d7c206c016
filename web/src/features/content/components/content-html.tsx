// A news item's or a download's body: HTML the server keeps to its allow-list
// (domain/src/content/html.rs), cleaned again here to the same list before it is shown.
import { SafeHtml, type HtmlAllowList } from "@/components/safe-html";

/** The server's allow-list (domain::content::html), the browser's too. */
export const CONTENT_HTML: HtmlAllowList = {
  tags: ["p", "br", "hr", "h2", "h3", "h4", "strong", "b", "em", "i", "u", "s", "small", "sub", "sup", "blockquote", "ul", "ol", "li", "a"],
  attributes: ["href", "title", "rel"],
};

export function ContentHtml({ html, className }: { html: string; className?: string }) {
  return <SafeHtml className={className} html={html} allowed={CONTENT_HTML} />;
}

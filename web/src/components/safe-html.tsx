// HTML written by staff (a voucher's rules, a news item's body), cleaned in the browser too:
// the server stores it sanitised (ammonia, on write), and DOMPurify drops whatever a later
// path might let through (scripts, handlers, javascript: links) before it reaches the page.
// A caller may narrow it to the server's own allow-list (`allowed`).
import DOMPurify, { type Config } from "dompurify";

export interface HtmlAllowList {
  tags: string[];
  attributes: string[];
}

export function SafeHtml({ html, className, allowed }: { html: string; className?: string; allowed?: HtmlAllowList }) {
  const config: Config = allowed ? { ALLOWED_TAGS: allowed.tags, ALLOWED_ATTR: allowed.attributes } : {};
  // Sanitised just above, so set as HTML.
  return <div className={className} dangerouslySetInnerHTML={{ __html: DOMPurify.sanitize(html, config) }} />;
}

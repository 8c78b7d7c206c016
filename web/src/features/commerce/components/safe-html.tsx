// HTML written by staff (a voucher's rules), cleaned in the browser too: the server keeps
// activities' HTML sanitised (ammonia, on write), and DOMPurify drops whatever a later
// path might let through (scripts, handlers, javascript: links) before it reaches the page.
import DOMPurify from "dompurify";

export function SafeHtml({ html, className }: { html: string; className?: string }) {
  // Sanitised just above, so set as HTML.
  return <div className={className} dangerouslySetInnerHTML={{ __html: DOMPurify.sanitize(html) }} />;
}

// A slide's or an item's button, by its link_type (links.ts).
import { Link } from "react-router";
import { linkTarget, type LinkFields } from "@/features/landing/links";

interface ItemLinkProps {
  item: LinkFields;
  className?: string;
  /** Names what the button is about when its label alone would be vague ('Saiba mais'). */
  context?: string | null;
}

export function ItemLink({ item, className = "button button--primary", context }: ItemLinkProps) {
  const target = linkTarget(item);
  if (!target) return null;
  const name = context ? `${target.label}: ${context}` : undefined;
  if (target.external) {
    return (
      <a className={className} href={target.href} target="_blank" rel="noopener noreferrer" aria-label={name}>
        {target.label}
      </a>
    );
  }
  return (
    <Link className={className} to={target.href} aria-label={name}>
      {target.label}
    </Link>
  );
}

// The member area's list screens share their frame: a heading, an optional search box (the
// list is filtered by the caller), and placeholders while the list loads. The look is in
// list-page.css; each screen styles only its own items.
import type { ReactNode } from "react";
import "./list-page.css";

interface ListSearch {
  /** The box's label and placeholder. */
  label: string;
  value: string;
  onChange: (value: string) => void;
}

interface ListPageProps {
  title: string;
  search?: ListSearch;
  children: ReactNode;
}

export function ListPage({ title, search, children }: ListPageProps) {
  return (
    <section className="list-page">
      <h1 className="page-title">{title}</h1>
      {search && (
        <input
          type="search"
          className="page-search"
          aria-label={search.label}
          placeholder={search.label}
          value={search.value}
          onChange={(event) => search.onChange(event.target.value)}
        />
      )}
      {children}
    </section>
  );
}

interface SkeletonsProps {
  /** What loads, for screen readers ('Carregando troféus'). */
  label: string;
  count: number;
  /** The container's layout (a grid like the list's). */
  className: string;
  /** Each placeholder's look; `skeleton-shimmer` for the shared shimmer. */
  itemClassName: string;
}

/** Placeholders while a list loads: a busy status with `count` blocks hidden from screen readers. */
export function Skeletons({ label, count, className, itemClassName }: SkeletonsProps) {
  return (
    <div className={className} role="status" aria-label={label} aria-busy="true">
      {Array.from({ length: count }, (_, index) => (
        <span key={index} className={itemClassName} aria-hidden="true" />
      ))}
    </div>
  );
}

import "@/components/list-page.css";

/** The detail's placeholder while the activity loads. */
export function DetailSkeleton() {
  return (
    <div className="detail-skeleton" role="status" aria-label="Carregando atividade" aria-busy="true">
      <span className="detail-skeleton__image skeleton-shimmer" aria-hidden="true" />
      <span className="detail-skeleton__line detail-skeleton__line--wide skeleton-shimmer" aria-hidden="true" />
      <span className="detail-skeleton__line skeleton-shimmer" aria-hidden="true" />
      <span className="detail-skeleton__line skeleton-shimmer" aria-hidden="true" />
    </div>
  );
}

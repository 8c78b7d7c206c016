/** Placeholders while activities load (spec 001: 5 or 6 of them). */
export function CardSkeletons({ count = 6, label = "Carregando atividades" }: { count?: 5 | 6; label?: string }) {
  return (
    <div className="card-skeletons" role="status" aria-label={label} aria-busy="true">
      {Array.from({ length: count }, (_, index) => (
        <span key={index} className="card-skeletons__card" aria-hidden="true" />
      ))}
    </div>
  );
}

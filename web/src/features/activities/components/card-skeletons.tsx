import { Skeletons } from "@/components/list-page";

/** Placeholders while activities load (spec 001: 5 or 6 of them). */
export function CardSkeletons({ count = 6, label = "Carregando atividades" }: { count?: 5 | 6; label?: string }) {
  return (
    <Skeletons label={label} count={count} className="card-skeletons" itemClassName="card-skeletons__card skeleton-shimmer" />
  );
}

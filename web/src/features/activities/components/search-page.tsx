// /homepage/search/{term}: the activities whose name holds the term (the server ignores
// case and accents), titled 'N resultado(s) da busca "term"'.
import { useParams } from "react-router";
import { useActivitySearch } from "@/features/activities/api/get-activities";
import { ActivityGrid } from "@/features/activities/components/activity-grid";
import { CardSkeletons } from "@/features/activities/components/card-skeletons";
import { useErrorToast } from "@/features/activities/use-error-toast";
import "./activities.css";

export function SearchPage() {
  const term = useParams().term ?? "";
  const search = useActivitySearch(term);
  useErrorToast(search.error);

  if (search.isLoading) return <CardSkeletons label="Buscando atividades" />;
  const found = search.data ?? [];
  return (
    <section className="activities-page">
      <h1 className="activities-page__title">{`${found.length} resultado(s) da busca "${term}"`}</h1>
      {found.length === 0 ? (
        <p className="activities-empty">Não há atividades</p>
      ) : (
        <ActivityGrid activities={found} label="Resultados da busca" />
      )}
    </section>
  );
}

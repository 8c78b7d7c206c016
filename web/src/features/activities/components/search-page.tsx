// /homepage/search/{term}: the activities whose name holds the term (the server ignores
// case and accents), a page at a time, titled 'N resultado(s) da busca "term"' with N the
// number of all matches (X-Total-Count).
import { useParams } from "react-router";
import { useActivitySearch } from "@/features/activities/api/get-activities";
import { CardSkeletons } from "@/features/activities/components/card-skeletons";
import { PagedActivityGrid } from "@/features/activities/components/paged-activity-grid";
import { ListPage } from "@/components/list-page";
import { useErrorToast } from "@/components/toasts/use-error-toast";
import "./activities.css";

export function SearchPage() {
  const term = useParams().term ?? "";
  const pages = useActivitySearch(term);
  useErrorToast(pages.error);

  if (pages.isLoading) return <CardSkeletons label="Buscando atividades" />;
  const total = pages.data?.pages[0]?.total ?? 0;
  return (
    <ListPage title={`${total} resultado(s) da busca "${term}"`}>
      <PagedActivityGrid pages={pages} label="Resultados da busca" />
    </ListPage>
  );
}

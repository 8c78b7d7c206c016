// /homepage/categoria/{id}: a category's activities a page at a time, the category's name
// as the heading.
import { useParams } from "react-router";
import { useCategory } from "@/features/activities/api/get-activities";
import { CardSkeletons } from "@/features/activities/components/card-skeletons";
import { NotFoundView } from "@/features/activities/components/not-found-view";
import { PagedActivityGrid } from "@/features/activities/components/paged-activity-grid";
import { ListPage } from "@/components/list-page";
import { useErrorToast } from "@/components/toasts/use-error-toast";
import "./activities.css";

export function CategoryPage() {
  const id = useParams().id ?? "";
  const pages = useCategory(id);
  useErrorToast(pages.error);

  if (pages.isPending) return <CardSkeletons />;
  const category = pages.data?.pages[0]?.category;
  if (!category) return <NotFoundView />;
  return (
    <ListPage title={category.name}>
      <PagedActivityGrid pages={pages} label={category.name} />
    </ListPage>
  );
}

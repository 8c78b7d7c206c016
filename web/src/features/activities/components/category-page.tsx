// /homepage/categoria/{id}: a category's activities, the category's name as the heading.
import { useParams } from "react-router";
import { useCategory } from "@/features/activities/api/get-activities";
import { ActivityGrid } from "@/features/activities/components/activity-grid";
import { CardSkeletons } from "@/features/activities/components/card-skeletons";
import { NotFoundView } from "@/features/activities/components/not-found-view";
import { useErrorToast } from "@/features/activities/use-error-toast";
import "./activities.css";

export function CategoryPage() {
  const id = useParams().id ?? "";
  const category = useCategory(id);
  useErrorToast(category.error);

  if (category.isPending) return <CardSkeletons />;
  if (!category.data) return <NotFoundView />;
  const activities = category.data.category_actions.map(({ action }) => action);
  return (
    <section className="activities-page">
      <h1 className="activities-page__title">{category.data.name}</h1>
      {activities.length === 0 ? (
        <p className="activities-empty">Não há atividades</p>
      ) : (
        <ActivityGrid activities={activities} label={category.data.name} />
      )}
    </section>
  );
}

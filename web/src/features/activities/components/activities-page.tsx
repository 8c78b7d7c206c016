// /homepage/atividades: every activity of the station, filtered on the page by name
// ignoring case and accents (spec 001 section 9).
import { useDeferredValue, useState } from "react";
import { useActivities } from "@/features/activities/api/get-activities";
import { normaliseForSearch } from "@/features/activities/activity-text";
import { ActivityGrid } from "@/features/activities/components/activity-grid";
import { CardSkeletons } from "@/features/activities/components/card-skeletons";
import { useErrorToast } from "@/features/activities/use-error-toast";
import "./activities.css";

export const NO_ACTIVITIES_TEXT = "Não há atividades";

export function ActivitiesPage() {
  const activities = useActivities();
  useErrorToast(activities.error);
  const [term, setTerm] = useState("");
  const deferredTerm = useDeferredValue(normaliseForSearch(term.trim()));
  const shown = (activities.data ?? []).filter((activity) => normaliseForSearch(activity.name).includes(deferredTerm));

  return (
    <section className="activities-page">
      <h1 className="activities-page__title">Atividades</h1>
      <input
        type="search"
        className="activities-page__search"
        aria-label="Pesquisar atividade"
        placeholder="Pesquisar atividade"
        value={term}
        onChange={(event) => setTerm(event.target.value)}
      />
      {activities.isPending ? (
        <CardSkeletons />
      ) : shown.length === 0 ? (
        <p className="activities-empty">{NO_ACTIVITIES_TEXT}</p>
      ) : (
        <ActivityGrid activities={shown} label="Atividades" />
      )}
    </section>
  );
}

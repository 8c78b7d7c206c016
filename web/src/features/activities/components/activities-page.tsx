// /homepage/atividades: the station's activities a page at a time. A term in the search box
// asks the server by name (ignoring case and accents, spec 001 section 9) once the typing
// pauses, and pages its results the same way.
import { useState } from "react";
import { useActivities, useActivitySearch } from "@/features/activities/api/get-activities";
import { PagedActivityGrid } from "@/features/activities/components/paged-activity-grid";
import { ListPage } from "@/components/list-page";
import { useErrorToast } from "@/components/toasts/use-error-toast";
import { useDebouncedValue } from "@/lib/use-debounced-value";
import "./activities.css";

/** How long the typing pauses before the term is asked for. */
export const SEARCH_DEBOUNCE_MS = 300;

export function ActivitiesPage() {
  const [term, setTerm] = useState("");
  const searched = useDebouncedValue(term.trim(), SEARCH_DEBOUNCE_MS);
  const all = useActivities({ enabled: searched === "" });
  const found = useActivitySearch(searched);
  const shown = searched === "" ? all : found;
  useErrorToast(shown.error);

  return (
    <ListPage title="Atividades" search={{ label: "Pesquisar atividade", value: term, onChange: setTerm }}>
      <PagedActivityGrid pages={shown} label="Atividades" />
    </ListPage>
  );
}

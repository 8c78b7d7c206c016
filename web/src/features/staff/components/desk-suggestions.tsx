// The 'Sugestões' tab of the political desk: the themes members suggested ('Sugerir tema'),
// newest first, paged.
import { useState } from "react";
import { useDeskSuggestions } from "@/features/staff/api/desk";
import type { DeskSuggestion } from "@/types/api";
import { OpsEmpty, OpsError, OpsLoading } from "@/features/staff/components/ops-states";
import { Pager } from "@/features/staff/components/pager";
import { countOf } from "@/features/staff/format";
import { formatDateTime } from "@/lib/dates";

function SuggestionCard({ suggestion }: { suggestion: DeskSuggestion }) {
  const headingId = `desk-suggestion-${suggestion.id}`;
  return (
    <article className="ops-card" aria-labelledby={headingId}>
      <h2 className="desk-card__title" id={headingId}>
        Nº {suggestion.id} · {suggestion.member?.name ?? "Membro sem cadastro"}
      </h2>
      <p className="ops-muted">
        {formatDateTime(suggestion.created_at)}
        {suggestion.member?.email && ` · ${suggestion.member.email}`}
      </p>
      <p className="desk-text">{suggestion.description}</p>
    </article>
  );
}

export function DeskSuggestions({ stationId }: { stationId: number }) {
  const [page, setPage] = useState(1);
  const list = useDeskSuggestions(stationId, page);
  if (list.data === undefined) {
    if (list.isError) return <OpsError title="Não foi possível carregar as sugestões." query={list} />;
    return <OpsLoading label="Carregando sugestões" />;
  }
  if (list.data.suggestions.length === 0) return <OpsEmpty text="Nenhuma sugestão de tema ainda." />;
  return (
    <>
      <p className="ops-muted">{countOf(list.data.total, "sugestão", "sugestões")}</p>
      <div className="desk-list__cards">
        {list.data.suggestions.map((suggestion) => (
          <SuggestionCard key={suggestion.id} suggestion={suggestion} />
        ))}
      </div>
      <Pager page={page} perPage={list.data.per_page} total={list.data.total} onPage={setPage} />
    </>
  );
}

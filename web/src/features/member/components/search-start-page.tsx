// /homepage/search without a term (spec 002 "Member routes"): the search form on a page of
// its own, with its heading and a hint. A blank term is not submitted (MemberSearch);
// a term goes to /homepage/search/{term}, the results.
import { MemberSearch } from "@/features/member/components/member-search";

export const SEARCH_TITLE = "Buscar atividades";
export const SEARCH_FIELD_LABEL = "O que você procura?";
export const SEARCH_HINT = "Digite o nome de uma atividade, ou parte dele, e toque em Buscar.";

export function SearchStartPage() {
  return (
    <section className="list-page search-start">
      <h1 className="page-title">{SEARCH_TITLE}</h1>
      <p id="search-start-hint" className="search-start__hint">
        {SEARCH_HINT}
      </p>
      <MemberSearch label={SEARCH_FIELD_LABEL} describedBy="search-start-hint" />
    </section>
  );
}

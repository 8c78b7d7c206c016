// /homepage/prestacao-de-contas: the station's transparency documents grouped by year, newest
// year first, each a link to its file, loaded a page at a time (a later page fills the last
// year shown and adds older ones). A failed load only stops the loading (spec 002 section 8):
// the empty text, no toast, and a way to try again.
import { ListPage, Skeletons } from "@/components/list-page";
import { groupByYear, useTransparency } from "@/features/content/api/transparency";
import { PagedListEnd } from "@/features/content/components/paged-list-end";
import { NO_DOCUMENTS_TEXT, NO_YEAR_TEXT, TRANSPARENCY_TITLE, TRY_AGAIN_TEXT } from "@/features/content/content-text";
import { pagedItems } from "@/lib/paging";
import "./content.css";

const SKELETON_ROWS = 5;

export function TransparencyPage() {
  const pages = useTransparency();
  const groups = groupByYear(pagedItems(pages.data?.pages));
  return (
    <ListPage title={TRANSPARENCY_TITLE}>
      {pages.isPending ? (
        <Skeletons
          label="Carregando documentos"
          count={SKELETON_ROWS}
          className="content-rows"
          itemClassName="content-row content-row--skeleton skeleton-shimmer"
        />
      ) : groups.length === 0 ? (
        <div className="list-page__empty">
          <p>{NO_DOCUMENTS_TEXT}</p>
          {pages.isError && (
            <button type="button" className="button button--secondary" onClick={() => void pages.refetch()}>
              {TRY_AGAIN_TEXT}
            </button>
          )}
        </div>
      ) : (
        <>
          {groups.map((group) => {
            const year = group.year ?? NO_YEAR_TEXT;
            return (
              <section key={year} className="content-year" aria-labelledby={`ano-${year}`}>
                <h2 id={`ano-${year}`} className="content-year__title">
                  {year}
                </h2>
                <ul className="content-year__list">
                  {group.documents.map((document) => (
                    <li key={document.id}>
                      <a href={document.anexo.url} target="_blank" rel="noopener noreferrer">
                        {document.nome}
                      </a>
                    </li>
                  ))}
                </ul>
              </section>
            );
          })}
          <PagedListEnd pages={pages} label="Carregar mais documentos" />
        </>
      )}
    </ListPage>
  );
}

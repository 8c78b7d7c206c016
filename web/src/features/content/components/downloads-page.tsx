// /homepage/downloads ('Arquivos'): the station's files, each with its page. Files only members
// may read are marked so.
import { Link } from "react-router";
import { ListPage, Skeletons } from "@/components/list-page";
import { useDownloads } from "@/features/content/api/downloads";
import { PagedListEnd } from "@/features/content/components/paged-list-end";
import {
  DOWNLOADS_FAILED_TEXT,
  DOWNLOADS_TITLE,
  MEMBERS_ONLY_TEXT,
  NO_DOWNLOADS_TEXT,
  SEE_MORE_TEXT,
  TRY_AGAIN_TEXT,
} from "@/features/content/content-text";
import { pagedItems } from "@/lib/paging";
import "./content.css";

const SKELETON_ROWS = 5;

export function DownloadsPage() {
  const pages = useDownloads();
  const downloads = pagedItems(pages.data?.pages);
  return (
    <ListPage title={DOWNLOADS_TITLE}>
      {pages.isPending ? (
        <Skeletons
          label="Carregando arquivos"
          count={SKELETON_ROWS}
          className="content-rows"
          itemClassName="content-row content-row--skeleton skeleton-shimmer"
        />
      ) : pages.isError && downloads.length === 0 ? (
        <div className="list-page__empty" role="alert">
          <p>{DOWNLOADS_FAILED_TEXT}</p>
          <button type="button" className="button button--secondary" onClick={() => void pages.refetch()}>
            {TRY_AGAIN_TEXT}
          </button>
        </div>
      ) : downloads.length === 0 ? (
        <p className="list-page__empty">{NO_DOWNLOADS_TEXT}</p>
      ) : (
        <>
          <ul className="content-rows" aria-label={DOWNLOADS_TITLE}>
            {downloads.map((download) => (
              <li key={download.id}>
                <article className="content-row">
                  <div className="content-row__text">
                    <h2 className="content-row__title">{download.title}</h2>
                    {download.subtitle && <p className="content-row__subtitle">{download.subtitle}</p>}
                    {download.description && <p className="content-row__description">{download.description}</p>}
                    {download.private && <p className="content-badge">{MEMBERS_ONLY_TEXT}</p>}
                  </div>
                  <Link className="button button--secondary" to={`/homepage/downloads/${download.id}`} aria-label={`${SEE_MORE_TEXT}: ${download.title}`}>
                    {SEE_MORE_TEXT}
                  </Link>
                </article>
              </li>
            ))}
          </ul>
          <PagedListEnd pages={pages} label="Carregar mais arquivos" />
        </>
      )}
    </ListPage>
  );
}

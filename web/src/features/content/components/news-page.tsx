// /homepage/noticias: the station's news as cards, each with 'Ver Mais' to its page. A failed
// load only stops the loading (spec 002 section 8): the empty text, no toast, and a way to try
// again.
import { Link } from "react-router";
import { ListPage, Skeletons } from "@/components/list-page";
import { IMAGE_SIZES, ResponsiveImage } from "@/components/responsive-image";
import { useNews } from "@/features/content/api/news";
import { PagedListEnd } from "@/features/content/components/paged-list-end";
import { NEWS_TITLE, NO_NEWS_TEXT, SEE_MORE_TEXT, TRY_AGAIN_TEXT } from "@/features/content/content-text";
import { formatDate } from "@/lib/dates";
import { pagedItems } from "@/lib/paging";
import "./content.css";

const SKELETON_CARDS = 6;

export function NewsPage() {
  const pages = useNews();
  const news = pagedItems(pages.data?.pages);
  return (
    <ListPage title={NEWS_TITLE}>
      {pages.isPending ? (
        <Skeletons
          label="Carregando notícias"
          count={SKELETON_CARDS}
          className="content-grid"
          itemClassName="content-card content-card--skeleton skeleton-shimmer"
        />
      ) : news.length === 0 ? (
        <div className="list-page__empty">
          <p>{NO_NEWS_TEXT}</p>
          {pages.isError && (
            <button type="button" className="button button--secondary" onClick={() => void pages.refetch()}>
              {TRY_AGAIN_TEXT}
            </button>
          )}
        </div>
      ) : (
        <>
          <ul className="content-grid" aria-label={NEWS_TITLE}>
            {news.map((item) => (
              <li key={item.id}>
                <article className="content-card">
                  {item.image && (
                    <ResponsiveImage
                      className="content-card__image"
                      src={item.image}
                      srcSet={item.image_srcset}
                      sizes={IMAGE_SIZES.cards}
                    />
                  )}
                  <div className="content-card__text">
                    <h2 className="content-card__title">{item.title}</h2>
                    {item.subtitle && <p className="content-card__subtitle">{item.subtitle}</p>}
                    <p className="content-card__date">{formatDate(item.published_at)}</p>
                    <Link className="button button--secondary content-card__more" to={`/homepage/noticias/${item.id}`} aria-label={`${SEE_MORE_TEXT}: ${item.title}`}>
                      {SEE_MORE_TEXT}
                    </Link>
                  </div>
                </article>
              </li>
            ))}
          </ul>
          <PagedListEnd pages={pages} label="Carregar mais notícias" />
        </>
      )}
    </ListPage>
  );
}

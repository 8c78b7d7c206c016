// A desk's news (spec 002 "Legal consultancy", "Accounting consultancy", "Political"):
// GET /api/{desk}/news?page=n&tagId=<the desk's tag>, page from 1, three cards a row,
// the next page asked for when half of the list's end is in sight (section 9: threshold
// 0.5), and 'Isso é tudo por enquanto!' once there is no more. A card opens
// noticias/detalhe with the item in the navigation state. A failed load only stops the
// loading (section 8): no toast, nothing more asked for.
import { Link } from "react-router";
import { Skeletons } from "@/components/list-page";
import { LoadMore } from "@/components/load-more";
import { IMAGE_SIZES, ResponsiveImage } from "@/components/responsive-image";
import { useServiceNews } from "@/features/services/api/services";
import type { ServiceNewsItem } from "@/types/api";
import { plainText } from "@/features/services/components/news-html";
import { NEWS_END_TEXT, NEWS_TITLE, NO_DATA_TEXT } from "@/features/services/components/service-texts";
import { DESK_PATHS, type NewsDesk } from "@/features/services/desks";
import { formatDate } from "@/lib/dates";
import "./services.css";

/** Spec 002 section 9: the next page loads when half of the end is in sight. */
const HALF_IN_SIGHT: IntersectionObserverInit = { threshold: 0.5 };

/** What noticias/detalhe reads from the navigation state. */
export interface NewsDetailState {
  item: ServiceNewsItem;
}

export function newsDetailPath(desk: NewsDesk): string {
  return `${DESK_PATHS[desk]}/noticias/detalhe`;
}

function NewsCard({ item, desk }: { item: ServiceNewsItem; desk: NewsDesk }) {
  const title = plainText(item.title.rendered);
  const state: NewsDetailState = { item };
  return (
    <li>
      <article className="service-news-card" aria-label={title}>
        {item.image && <ResponsiveImage className="service-news-card__image" src={item.image} srcSet={item.image_srcset} sizes={IMAGE_SIZES.cards} />}
        <div className="service-news-card__text">
          <h2 className="service-news-card__title">
            <Link to={newsDetailPath(desk)} state={state}>
              {title}
            </Link>
          </h2>
          {item.subtitle && <p className="service-news-card__subtitle">{item.subtitle}</p>}
          <p className="service-news-card__date">{formatDate(item.date)}</p>
        </div>
      </article>
    </li>
  );
}

export function ServiceNewsPage({ desk }: { desk: NewsDesk }) {
  const pages = useServiceNews(desk);
  const items = pages.data?.pages.flat() ?? [];
  const failed = pages.isError || pages.isFetchNextPageError;
  const ended = !pages.isPending && !failed && !pages.hasNextPage;
  return (
    <section className="service-page">
      <h1 className="page-title">{NEWS_TITLE}</h1>
      {pages.isPending ? (
        <Skeletons label="Carregando notícias" count={6} className="service-news" itemClassName="service-news-card service-news-card--skeleton skeleton-shimmer" />
      ) : (
        <>
          {items.length > 0 && (
            <ul className="service-news" aria-label={NEWS_TITLE}>
              {items.map((item) => (
                <NewsCard key={item.id} item={item} desk={desk} />
              ))}
            </ul>
          )}
          {pages.isFetchingNextPage && (
            <p className="service-news__more" role="status">
              Carregando…
            </p>
          )}
          {!failed && (
            <LoadMore
              hasMore={pages.hasNextPage}
              loading={pages.isFetchingNextPage}
              onLoadMore={() => void pages.fetchNextPage()}
              label="Carregar mais notícias"
              observer={HALF_IN_SIGHT}
            />
          )}
          {ended && items.length > 0 && <p className="service-news__end">{NEWS_END_TEXT}</p>}
          {(ended || failed) && items.length === 0 && <p className="list-page__empty">{NO_DATA_TEXT}</p>}
        </>
      )}
    </section>
  );
}

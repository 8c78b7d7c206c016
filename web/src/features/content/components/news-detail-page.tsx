// /homepage/noticias/:id: one news item with its title, subtitle, picture and body (HTML
// cleaned again here, components/content-html.tsx).
import { Link, useParams } from "react-router";
import { IMAGE_SIZES, ResponsiveImage } from "@/components/responsive-image";
import { useNewsItem } from "@/features/content/api/news";
import { ContentHtml } from "@/features/content/components/content-html";
import { ContentMissing } from "@/features/content/components/content-missing";
import { BACK_TO_NEWS_TEXT } from "@/features/content/content-text";
import { formatDate } from "@/lib/dates";
import "./content.css";

export function NewsDetailPage() {
  const id = Number(useParams().id);
  const item = useNewsItem(id);
  if (item.isPending && item.fetchStatus !== "idle") {
    return (
      <p className="content-detail__loading" role="status">
        Carregando notícia…
      </p>
    );
  }
  if (!item.data) {
    return <ContentMissing error={item.error} fallback="Notícia não encontrada" back={{ to: "/homepage/noticias", label: BACK_TO_NEWS_TEXT }} onRetry={item.isError ? () => void item.refetch() : undefined} />;
  }
  const news = item.data;
  return (
    <article className="content-detail">
      <Link className="content-detail__back" to="/homepage/noticias">
        {BACK_TO_NEWS_TEXT}
      </Link>
      <h1 className="page-title">{news.title}</h1>
      {news.subtitle && <p className="content-detail__subtitle">{news.subtitle}</p>}
      <p className="content-detail__date">{formatDate(news.published_at)}</p>
      {news.image && (
        // The article is 760 px wide at most.
        <ResponsiveImage
          className="content-detail__image"
          src={news.image}
          srcSet={news.image_srcset}
          sizes={IMAGE_SIZES.column(760)}
          lazy={false}
        />
      )}
      <ContentHtml className="content-detail__body" html={news.body} />
    </article>
  );
}

// noticias/detalhe: the news item the list handed over in the navigation state (spec 002:
// "detail received through navigation state"). Opened without it (a bookmark, a reload in
// another tab), it says so and leads back to the list.
import { Link, useLocation } from "react-router";
import { IMAGE_SIZES, ResponsiveImage } from "@/components/responsive-image";
import { SafeHtml } from "@/components/safe-html";
import type { ServiceNewsItem } from "@/types/api";
import { NEWS_HTML, plainText } from "@/features/services/components/news-html";
import { BACK_TO_NEWS_TEXT, NEWS_MISSING_TEXT } from "@/features/services/components/service-texts";
import { formatDate } from "@/lib/dates";
import "./services.css";

function itemOf(state: unknown): ServiceNewsItem | null {
  if (typeof state !== "object" || state === null || !("item" in state)) return null;
  const { item } = state;
  if (typeof item !== "object" || item === null) return null;
  const candidate = item as Partial<ServiceNewsItem>;
  return typeof candidate.title?.rendered === "string" && typeof candidate.content?.rendered === "string" ? (item as ServiceNewsItem) : null;
}

export function ServiceNewsDetailPage() {
  const location = useLocation();
  const item = itemOf(location.state);
  const back = location.pathname.replace(/\/detalhe\/?$/, "");
  const backLink = (
    <Link className="button button--secondary" to={back}>
      {BACK_TO_NEWS_TEXT}
    </Link>
  );
  if (!item) {
    return (
      <section className="service-page">
        <h1 className="page-title">{NEWS_MISSING_TEXT}</h1>
        <p>Abra a notícia a partir da lista de notícias.</p>
        {backLink}
      </section>
    );
  }
  return (
    <article className="service-page service-news-detail">
      <h1 className="page-title">{plainText(item.title.rendered)}</h1>
      {item.subtitle && <p className="service-news-detail__subtitle">{item.subtitle}</p>}
      <p className="service-news-detail__date">{formatDate(item.date)}</p>
      {item.image && <ResponsiveImage className="service-news-detail__image" src={item.image} srcSet={item.image_srcset} sizes={IMAGE_SIZES.cards} />}
      <SafeHtml className="service-news-detail__body" html={item.content.rendered} allowed={NEWS_HTML} />
      {backLink}
    </article>
  );
}

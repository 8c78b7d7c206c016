// The pages a desk fills in the console (GET /api/services/{desk}): its contacts, its texts
// ('orientacoes', 'informacoes') and its video playlists. While the page loads: placeholders;
// when it fails or holds nothing: 'Não há dados para visualização' (a failed load only stops
// the loading, spec 002 section 8).
import type { ReactNode } from "react";
import { Skeletons } from "@/components/list-page";
import { useServicePage } from "@/features/services/api/services";
import type { Desk } from "@/features/services/desks";
import type { ServicePage } from "@/types/api";
import { CONTACTS_TITLE, NO_DATA_TEXT } from "@/features/services/components/service-texts";
import { digitsOf, formatServicePhone } from "@/lib/masks";
import "./services.css";

function DeskContent({ desk, title, children }: { desk: Desk; title: string; children: (page: ServicePage) => ReactNode }) {
  const page = useServicePage(desk);
  return (
    <section className="service-page">
      <h1 className="page-title">{title}</h1>
      {page.isPending ? (
        <Skeletons label={`Carregando ${title.toLowerCase()}`} count={3} className="service-skeletons" itemClassName="service-skeletons__item skeleton-shimmer" />
      ) : page.isError ? (
        <p className="list-page__empty">{NO_DATA_TEXT}</p>
      ) : (
        children(page.data)
      )}
    </section>
  );
}

export function ServiceContactsPage({ desk }: { desk: Desk }) {
  return (
    <DeskContent desk={desk} title={CONTACTS_TITLE}>
      {({ contatos }) =>
        contatos.length === 0 ? (
          <p className="list-page__empty">{NO_DATA_TEXT}</p>
        ) : (
          <ul className="service-contacts" aria-label={CONTACTS_TITLE}>
            {contatos.map((contact) => (
              <li key={`${contact.name}-${contact.email}`} className="service-card">
                <h2 className="service-card__title">{contact.name}</h2>
                {contact.role && <p className="service-card__subtitle">{contact.role}</p>}
                {contact.email && (
                  <p>
                    <a href={`mailto:${contact.email}`}>{contact.email}</a>
                  </p>
                )}
                {contact.phone && (
                  <p>
                    <a href={`tel:+55${digitsOf(contact.phone)}`}>{formatServicePhone(contact.phone)}</a>
                  </p>
                )}
              </li>
            ))}
          </ul>
        )
      }
    </DeskContent>
  );
}

interface ServiceTextPageProps {
  desk: Desk;
  field: "orientacoes" | "informacoes";
  title: string;
}

/** A desk's text, one paragraph per blank-line-separated block. */
export function ServiceTextPage({ desk, field, title }: ServiceTextPageProps) {
  return (
    <DeskContent desk={desk} title={title}>
      {(page) => {
        const paragraphs = page[field]
          .split(/\n\s*\n/)
          .map((paragraph) => paragraph.trim())
          .filter((paragraph) => paragraph !== "");
        if (paragraphs.length === 0) return <p className="list-page__empty">{NO_DATA_TEXT}</p>;
        return (
          <div className="service-text">
            {paragraphs.map((paragraph, index) => (
              <p key={index}>{paragraph}</p>
            ))}
          </div>
        );
      }}
    </DeskContent>
  );
}

interface ServiceVideosPageProps {
  desk: Desk;
  /** The playlist's slug on the desk's page ('videos'). */
  slug: string;
  title: string;
}

/** The desk's playlist embedded, titled for screen readers; without one, the empty text. */
export function ServiceVideosPage({ desk, slug, title }: ServiceVideosPageProps) {
  return (
    <DeskContent desk={desk} title={title}>
      {({ playlists }) => {
        const playlist = playlists.find((candidate) => candidate.slug === slug);
        if (!playlist?.url) return <p className="list-page__empty">{NO_DATA_TEXT}</p>;
        return (
          <div className="service-video">
            <iframe
              className="service-video__frame"
              src={playlist.url}
              title={playlist.title || title}
              allow="accelerometer; clipboard-write; encrypted-media; gyroscope; picture-in-picture"
              allowFullScreen
              loading="lazy"
            />
          </div>
        );
      }}
    </DeskContent>
  );
}

import { useId } from "react";
import { Link } from "react-router";
import type { LegalDocument, LegalSection } from "@/features/public-pages/legal/legal-document";
import { StationLogo } from "@/features/stations";
import "./public-pages.css";

function Section({ section }: { section: LegalSection }) {
  const titleId = useId();
  return (
    <section className="legal__section" aria-labelledby={titleId}>
      <h2 id={titleId} className="legal__section-title">
        {section.title}
      </h2>
      {section.paragraphs.map((paragraph) => (
        <p key={paragraph}>{paragraph}</p>
      ))}
    </section>
  );
}

/** A legal text under the station's logo, which leads back to the start page. */
export function LegalDocumentView({ document }: { document: LegalDocument }) {
  return (
    <div className="legal">
      <header className="legal__header">
        <Link to="/" className="legal__home">
          <StationLogo className="legal__logo" />
        </Link>
      </header>
      <main className="legal__card">
        <article>
          <h1 className="legal__title">{document.title}</h1>
          <p className="legal__updated">Última atualização: {document.updatedAt}</p>
          {document.intro.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
          {document.sections.map((section) => (
            <Section key={section.title} section={section} />
          ))}
        </article>
      </main>
    </div>
  );
}

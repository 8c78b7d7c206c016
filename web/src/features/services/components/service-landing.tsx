// A desk's landing: its title, what the service is (the spec's own words per desk) and the
// way to each of its pages.
import type { ReactNode } from "react";
import { Link } from "react-router";
import "./services.css";

export interface ServiceLink {
  to: string;
  label: string;
  description?: string;
}

interface ServiceLandingProps {
  title: string;
  intro: ReactNode;
  links: ServiceLink[];
}

export function ServiceLanding({ title, intro, links }: ServiceLandingProps) {
  return (
    <section className="service-page">
      <h1 className="page-title">{title}</h1>
      <div className="service-landing__intro">{intro}</div>
      <nav aria-label={`Páginas de ${title}`}>
        <ul className="service-landing__links">
          {links.map((link) => (
            <li key={link.to}>
              <Link className="service-landing__link" to={link.to}>
                <span className="service-landing__label">{link.label}</span>
                {link.description && <span className="service-landing__description">{link.description}</span>}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </section>
  );
}

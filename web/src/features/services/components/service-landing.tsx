// A desk's landing: its title, what the service is (the spec's own words per desk), the
// carousel of the activity category the station chose for the desk (spec 002 "Legal
// consultancy"; none when it chose none) and the way to each of its pages.
import type { ReactNode } from "react";
import { Link } from "react-router";
import { CategoryCarousel } from "@/features/activities";
import { useServicePage } from "@/features/services/api/services";
import type { Desk } from "@/features/services/desks";
import "./services.css";

export interface ServiceLink {
  to: string;
  label: string;
  description?: string;
}

interface ServiceLandingProps {
  desk: Desk;
  title: string;
  intro: ReactNode;
  links: ServiceLink[];
}

export function ServiceLanding({ desk, title, intro, links }: ServiceLandingProps) {
  const categoryId = useServicePage(desk).data?.categoria;
  return (
    <section className="service-page">
      <h1 className="page-title">{title}</h1>
      <div className="service-landing__intro">{intro}</div>
      {categoryId != null && <CategoryCarousel categoryId={categoryId} />}
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

// /sobre/{id} (spec 002 "Public routes"): one of the station's about pages, its text as
// plain paragraphs (never HTML), with its picture.
import { Link, useParams } from "react-router";
import { NotFoundPage } from "@/components/not-found-page";
import { IMAGE_SIZES, ResponsiveImage } from "@/components/responsive-image";
import { useAboutPage } from "@/features/landing/api/get-landing";
import { StationLogo } from "@/features/stations";
import "./landing-page.css";

function aboutIdOf(param: string | undefined): number | null {
  return param && /^[1-9][0-9]{0,15}$/.test(param) ? Number(param) : null;
}

export function AboutPage() {
  const id = aboutIdOf(useParams().id);
  const page = useAboutPage(id);
  if (id === null || page.isError) return <NotFoundPage />;
  return (
    <div className="landing">
      <header className="landing__header">
        <Link to="/" aria-label="Página inicial">
          <StationLogo className="landing__logo" />
        </Link>
      </header>
      <main className="about-page" aria-busy={page.isPending}>
        {page.isPending ? (
          <div className="landing__loading" role="status" aria-label="Carregando" />
        ) : (
          <article>
            <h1 className="about-page__title">{page.data.title}</h1>
            {page.data.image && (
              // The column is 44rem wide at most, its padding inside.
              <ResponsiveImage
                className="about-page__image"
                src={page.data.image}
                srcSet={page.data.image_srcset}
                sizes={IMAGE_SIZES.column(704)}
                lazy={false}
              />
            )}
            {page.data.paragraphs.map((paragraph, index) => (
              <p key={index}>{paragraph}</p>
            ))}
            <p>
              <Link className="button button--secondary" to="/">
                Voltar
              </Link>
            </p>
          </article>
        )}
      </main>
    </div>
  );
}

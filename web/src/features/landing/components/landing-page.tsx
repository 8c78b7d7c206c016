import { lazy, Suspense } from "react";
import { Link } from "react-router";
import { ErrorBoundary } from "@/components/error-boundary";
import { useLanding } from "@/features/landing/api/get-landing";
import { NearViewport } from "@/features/landing/components/near-viewport";
import { StationLogo, useStation } from "@/features/stations";
import type { Landing } from "@/types/api";
import "./landing-page.css";

// The sections load in a chunk of their own as the page renders (scripts/check-bundle-size.js
// counts it); the heavy sections inside it load only near the viewport.
const LandingSections = lazy(async () => ({
  default: (await import("@/features/landing/components/landing-sections")).LandingSections,
}));
// The default welcome's public activities, for a station that configured no landing.
const PublicFeaturedCarousel = lazy(async () => ({
  default: (await import("@/features/activities")).PublicFeaturedCarousel,
}));

const isConfigured = (landing: Landing | undefined): landing is Landing =>
  landing !== undefined && (landing.slides.length > 0 || landing.sections.length > 0);

/** The default welcome: the station's name, the ways in and its public featured activities. */
function DefaultWelcome({ name }: { name: string }) {
  return (
    <>
      <section className="landing__hero">
        <h1 className="landing__title">{name}</h1>
        <p className="landing__lead">
          Participe das atividades, acumule benefícios e aproveite tudo o que preparamos para você.
        </p>
      </section>
      {/* The carousel is extra: if its code cannot load, the page goes on without it. */}
      <NearViewport>
        <ErrorBoundary fallback={null}>
          <Suspense fallback={null}>
            <PublicFeaturedCarousel className="landing__featured" />
          </Suspense>
        </ErrorBoundary>
      </NearViewport>
    </>
  );
}

/**
 * The visitors' page at /: the station's logo and the ways in, then its landing (slides and
 * sections, spec 002 section 2), or a default welcome when it configured none or the landing
 * cannot load; the about pages' links in the footer.
 */
export function LandingPage() {
  const station = useStation();
  const landing = useLanding();
  const ownerName = station.establishment?.full_social_name ?? station.name;
  const configured = isConfigured(landing.data) ? landing.data : null;

  return (
    <div className="landing">
      <header className="landing__header">
        <StationLogo className="landing__logo" />
        <nav className="landing__actions" aria-label="Acesso">
          <Link className="button button--secondary" to="/login">
            Entrar
          </Link>
          <Link className="button button--primary" to="/cadastrar">
            Cadastre-se
          </Link>
        </nav>
      </header>
      <main className="landing__main" aria-busy={landing.isPending}>
        {landing.isPending ? (
          <>
            <h1 className="landing__visually-hidden">{station.name}</h1>
            <div className="landing__loading" role="status" aria-label="Carregando" />
          </>
        ) : configured ? (
          <>
            <h1 className="landing__visually-hidden">{station.name}</h1>
            <ErrorBoundary fallback={<DefaultWelcome name={station.name} />}>
              <Suspense fallback={<div className="landing__loading" role="status" aria-label="Carregando" />}>
                <LandingSections landing={configured} />
              </Suspense>
            </ErrorBoundary>
          </>
        ) : (
          <DefaultWelcome name={station.name} />
        )}
      </main>
      <footer className="landing__footer">
        {configured && configured.about_pages.length > 0 && (
          <nav className="landing__about" aria-label="Sobre">
            {configured.about_pages.map((page) => (
              <Link key={page.id} to={`/sobre/${page.id}`}>
                {page.title}
              </Link>
            ))}
          </nav>
        )}
        <p>
          © {new Date().getFullYear()} {ownerName}
        </p>
      </footer>
    </div>
  );
}

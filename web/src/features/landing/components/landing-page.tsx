import { lazy, Suspense } from "react";
import { Link } from "react-router";
import { ErrorBoundary } from "@/components/error-boundary";
import { StationLogo, useStation } from "@/features/stations";
import "./landing-page.css";

// The public activities carousel loads in its own chunks once the page has rendered, so the
// first load of / carries only the page itself (scripts/check-bundle-size.js counts both).
const PublicFeaturedCarousel = lazy(async () => ({
  default: (await import("@/features/activities")).PublicFeaturedCarousel,
}));

/** The visitors' page at /: the station's logo and name, the ways in, the public featured activities. */
export function LandingPage() {
  const station = useStation();
  const ownerName = station.establishment?.full_social_name ?? station.name;

  return (
    <div className="landing">
      <header className="landing__header">
        <StationLogo className="landing__logo" />
      </header>
      <main className="landing__main">
        <section className="landing__hero">
          <h1 className="landing__title">{station.name}</h1>
          <p className="landing__lead">
            Participe das atividades, acumule benefícios e aproveite tudo o que preparamos para você.
          </p>
          <div className="landing__actions">
            <Link className="button button--primary" to="/login">
              Entrar
            </Link>
            <Link className="button button--secondary" to="/cadastrar">
              Cadastre-se
            </Link>
          </div>
        </section>
        {/* The carousel is extra: if its code cannot load, the page goes on without it. */}
        <ErrorBoundary fallback={null}>
          <Suspense fallback={null}>
            <PublicFeaturedCarousel className="landing__featured" />
          </Suspense>
        </ErrorBoundary>
      </main>
      <footer className="landing__footer">
        <p>
          © {new Date().getFullYear()} {ownerName}
        </p>
      </footer>
    </div>
  );
}

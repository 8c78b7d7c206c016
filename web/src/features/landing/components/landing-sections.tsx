// The landing's body (spec 002 section 2): the header slides and the sections in the order
// the API gives, each by its type. This module loads as the landing renders, so it holds
// only the light types; the carousels, the plans and the card carousel load in chunks of
// their own when their section nears the viewport (NearViewport).
import { lazy, Suspense, type CSSProperties, type ReactNode } from "react";
import { ErrorBoundary } from "@/components/error-boundary";
import { IMAGE_SIZES, ResponsiveImage } from "@/components/responsive-image";
import { useStation } from "@/features/stations";
import { HeaderSlides } from "@/features/landing/components/header-slides";
import { ItemCard } from "@/features/landing/components/item-card";
import { ItemLink } from "@/features/landing/components/item-link";
import { ItemMedia } from "@/features/landing/components/item-media";
import { LandingSupportSection } from "@/features/landing/components/landing-support-section";
import { NearViewport } from "@/features/landing/components/near-viewport";
import type { Landing, LandingItem, LandingSection } from "@/types/api";
import "./landing-sections.css";

const CardCarousel = lazy(async () => ({
  default: (await import("@/features/landing/components/card-carousel")).CardCarousel,
}));
const PublicFeaturedCarousel = lazy(async () => ({
  default: (await import("@/features/activities")).PublicFeaturedCarousel,
}));
const LandingPlans = lazy(async () => ({
  default: (await import("@/features/subscriptions")).LandingPlans,
}));

export const SECTION_TYPES = {
  cards: 1,
  blocks: 2,
  cardCarousel: 3,
  centredText: 4,
  publicActivities: 5,
  appBadges: 6,
  plans: 7,
  supportForm: 8,
  mediaOnly: 9,
} as const;

/** A section's code, loaded near the viewport; if it cannot load, the page goes on without it. */
function Deferred({ children }: { children: ReactNode }) {
  return (
    <NearViewport>
      <ErrorBoundary fallback={null}>
        <Suspense fallback={<div className="landing-placeholder" aria-hidden="true" />}>{children}</Suspense>
      </ErrorBoundary>
    </NearViewport>
  );
}

function sectionStyle(section: LandingSection): CSSProperties {
  const style: Record<string, string> = {};
  if (section.background_type !== "image" && section.background_color) {
    style.backgroundColor = section.background_color;
  }
  if (section.text_color) style.color = section.text_color;
  if (section.title_color) style["--landing-title-color"] = section.title_color;
  return style;
}

function Block({ item }: { item: LandingItem }) {
  const hasMedia = Boolean(item.image || item.video || item.video_id);
  return (
    <article className={`landing-block${item.image_left ? " landing-block--media-left" : ""}`}>
      {hasMedia && (
        <div className="landing-block__media">
          <ItemMedia item={item} sizes={IMAGE_SIZES.half} />
        </div>
      )}
      <div className="landing-block__text">
        {item.name && <h3 className="landing-block__name">{item.name}</h3>}
        {item.description && <p>{item.description}</p>}
        <ItemLink item={item} context={item.name} />
      </div>
    </article>
  );
}

function AppBadges() {
  const station = useStation();
  if (!station.has_app) return null;
  return (
    <p className="landing-badges">
      {station.ios_link && (
        <a className="landing-badge" href={station.ios_link} target="_blank" rel="noopener noreferrer">
          <small>Baixe na</small> App Store
        </a>
      )}
      {station.android_link && (
        <a className="landing-badge" href={station.android_link} target="_blank" rel="noopener noreferrer">
          <small>Disponível no</small> Google Play
        </a>
      )}
    </p>
  );
}

function SectionBody({ section }: { section: LandingSection }) {
  const items = section.items;
  switch (section.type_id) {
    case SECTION_TYPES.cards:
      return (
        <ul className="landing-cards">
          {items.map((item) => (
            <li key={item.id}>
              <ItemCard item={item} />
            </li>
          ))}
        </ul>
      );
    case SECTION_TYPES.blocks:
      return (
        <div className="landing-blocks">
          {items.map((item) => (
            <Block key={item.id} item={item} />
          ))}
        </div>
      );
    case SECTION_TYPES.cardCarousel:
      return (
        <Deferred>
          <CardCarousel items={items} label={section.title ?? "Destaques"} />
        </Deferred>
      );
    case SECTION_TYPES.centredText:
      return (
        <div className="landing-centred">
          {items.map((item) => (
            <div key={item.id}>
              {item.name && <h3>{item.name}</h3>}
              {item.description && <p>{item.description}</p>}
              <ItemLink item={item} context={item.name} />
            </div>
          ))}
        </div>
      );
    case SECTION_TYPES.publicActivities:
      return (
        <Deferred>
          <PublicFeaturedCarousel className="landing-activities" />
        </Deferred>
      );
    case SECTION_TYPES.appBadges:
      return <AppBadges />;
    case SECTION_TYPES.plans:
      return (
        <Deferred>
          <LandingPlans />
        </Deferred>
      );
    case SECTION_TYPES.supportForm:
      return <LandingSupportSection />;
    case SECTION_TYPES.mediaOnly:
      return (
        <div className="landing-media-list">
          {items.map((item) => (
            <ItemMedia key={item.id} item={item} alt={item.name ?? ""} sizes={IMAGE_SIZES.column(1152)} />
          ))}
        </div>
      );
    default:
      return null;
  }
}

function Section({ section }: { section: LandingSection }) {
  const station = useStation();
  // The badges section is the station's app's: without an app, no empty band.
  if (section.type_id === SECTION_TYPES.appBadges && !station.has_app) return null;
  const titleId = `landing-section-${section.id}`;
  return (
    <section
      className={`landing-section landing-section--type-${section.type_id}`}
      style={sectionStyle(section)}
      aria-labelledby={section.title ? titleId : undefined}
    >
      {section.background_type === "image" && section.background_image && (
        // A picture rather than a CSS background, so the browser picks its width (srcset).
        <ResponsiveImage
          className="landing-section__background"
          src={section.background_image}
          srcSet={section.background_image_srcset}
          sizes={IMAGE_SIZES.fullWidth}
        />
      )}
      {section.title && (
        <h2 id={titleId} className="landing-section__title">
          {section.title}
        </h2>
      )}
      {section.subtitle && <p className="landing-section__subtitle">{section.subtitle}</p>}
      <SectionBody section={section} />
    </section>
  );
}

export function LandingSections({ landing }: { landing: Landing }) {
  return (
    <>
      <HeaderSlides slides={landing.slides} />
      {landing.sections.map((section) => (
        <Section key={section.id} section={section} />
      ))}
    </>
  );
}

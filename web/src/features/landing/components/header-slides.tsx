// The landing's header slides (spec 002 sections 2 and 9): one at a time, the next every
// 5000 ms, wrapping to the first. It stands still for visitors who ask for reduced motion
// (until they press play), while the pointer or the keyboard is on it, and once paused with
// its button (WCAG 2.2.2). Previous and next buttons work by keyboard; the slide region is
// announced (aria-live polite) only when it does not move by itself.
import { useEffect, useState } from "react";
import { IMAGE_SIZES, ResponsiveImage } from "@/components/responsive-image";
import { ItemLink } from "@/features/landing/components/item-link";
import type { LandingSlide } from "@/types/api";

export const SLIDE_INTERVAL_MS = 5_000;

export function prefersReducedMotion(): boolean {
  return window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
}

export function HeaderSlides({ slides }: { slides: LandingSlide[] }) {
  const [current, setCurrent] = useState(0);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const [playing, setPlaying] = useState(() => !prefersReducedMotion());
  const count = slides.length;
  const rotating = count > 1 && playing && !hovered && !focused;

  useEffect(() => {
    if (!rotating) return;
    const timer = window.setInterval(() => setCurrent((index) => (index + 1) % count), SLIDE_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [rotating, count]);

  if (count === 0) return null;
  const shown = current % count;
  const go = (step: number) => setCurrent((index) => (index + step + count) % count);

  return (
    <section
      className="header-slides"
      aria-roledescription="carrossel"
      aria-label="Apresentação"
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) setFocused(false);
      }}
    >
      {count > 1 && (
        <div className="header-slides__controls">
          <button
            type="button"
            className="header-slides__control"
            aria-label={playing ? "Pausar apresentação" : "Reproduzir apresentação"}
            onClick={() => setPlaying((on) => !on)}
          >
            <span aria-hidden="true">{playing ? "❚❚" : "▶"}</span>
          </button>
          <button type="button" className="header-slides__control" aria-label="Slide anterior" onClick={() => go(-1)}>
            <span aria-hidden="true">‹</span>
          </button>
          <button type="button" className="header-slides__control" aria-label="Próximo slide" onClick={() => go(1)}>
            <span aria-hidden="true">›</span>
          </button>
        </div>
      )}
      <div className="header-slides__viewport" aria-live={rotating ? "off" : "polite"}>
        {slides.map((slide, index) => (
          <div
            key={slide.id}
            className={`header-slides__slide${index === shown ? " header-slides__slide--shown" : ""}`}
            role="group"
            aria-roledescription="slide"
            aria-label={`${index + 1} de ${count}`}
            hidden={index !== shown}
          >
            <ResponsiveImage
              className="header-slides__image"
              src={slide.image}
              srcSet={slide.image_srcset}
              sizes={IMAGE_SIZES.fullWidth}
              fetchPriority={index === 0 ? "high" : "low"}
              lazy={index !== 0}
            />
            <div className="header-slides__text">
              <p className="header-slides__title">{slide.title}</p>
              {slide.subtitle && <p className="header-slides__subtitle">{slide.subtitle}</p>}
              <ItemLink item={slide} context={slide.title} />
            </div>
          </div>
        ))}
      </div>
    </section>
  );
}

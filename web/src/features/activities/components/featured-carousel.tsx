// The featured carousel, the members' on the home and the visitors' on the landing page:
// advances every 5 s and wraps to the first; the 350 ms slide is CSS, dropped for those who
// ask for reduced motion (activities.css), who also get a carousel that stands still until
// they play it. It holds still while the pointer or the keyboard is on it, so one can read and
// choose a slide, and a button pauses it for good (WCAG 2.2.2: moving content can be stopped).
import { useEffect, useId, useState } from "react";
import type { ActivityCard as Activity } from "@/types/api";
import { ActivityCard, type CardAudience } from "@/features/activities/components/activity-card";

export const CAROUSEL_INTERVAL_MS = 5_000;

interface FeaturedCarouselProps {
  activities: Activity[];
  /** Whose cards: a member's, or a visitor's that lead to the public pages. */
  audience?: CardAudience;
  /** A heading shown above the slides, which also names the carousel (else 'Destaques'). */
  title?: string;
}

function prefersReducedMotion(): boolean {
  return window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
}

export function FeaturedCarousel({ activities, audience = "member", title }: FeaturedCarouselProps) {
  const titleId = useId();
  const [current, setCurrent] = useState(0);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const [playing, setPlaying] = useState(() => !prefersReducedMotion());
  const count = activities.length;
  const paused = hovered || focused || !playing;

  useEffect(() => {
    if (count < 2 || paused) return;
    const timer = window.setInterval(() => setCurrent((index) => (index + 1) % count), CAROUSEL_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [count, paused]);

  if (count === 0) return null;
  const shown = current % count;

  return (
    <section
      className="featured-carousel"
      aria-roledescription="carrossel"
      aria-label={title === undefined ? "Destaques" : undefined}
      aria-labelledby={title === undefined ? undefined : titleId}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) setFocused(false);
      }}
    >
      {title !== undefined && (
        <h2 id={titleId} className="category-row__title">
          {title}
        </h2>
      )}
      <div className="featured-carousel__track" style={{ transform: `translateX(-${shown * 100}%)` }}>
        {activities.map((activity, index) => (
          <div
            key={activity.id}
            className="featured-carousel__slide"
            role="group"
            aria-roledescription="slide"
            aria-label={`${index + 1} de ${count}`}
            aria-hidden={index !== shown}
            inert={index !== shown}
          >
            <ActivityCard
              activity={{ ...activity, image: activity.featuredImage ?? activity.image }}
              variant="home"
              audience={audience}
            />
          </div>
        ))}
      </div>
      {count > 1 && (
        <div className="featured-carousel__dots">
          <button
            type="button"
            className="featured-carousel__play"
            aria-label={playing ? "Pausar destaques" : "Reproduzir destaques"}
            onClick={() => setPlaying((on) => !on)}
          >
            <span aria-hidden="true">{playing ? "❚❚" : "▶"}</span>
          </button>
          {activities.map((activity, index) => (
            <button
              key={activity.id}
              type="button"
              className="featured-carousel__dot"
              aria-label={`Destaque ${index + 1}`}
              aria-current={index === shown}
              onClick={() => setCurrent(index)}
            />
          ))}
        </div>
      )}
    </section>
  );
}

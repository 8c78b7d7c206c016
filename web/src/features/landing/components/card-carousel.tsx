// A card carousel (landing section type 3): 1 card on a phone, 2 on a tablet, 3 on a desktop
// and 4 on a wide one (spec 002 section 2); previous and next buttons move one card and work
// by keyboard; cards out of view are inert. Loaded only when its section nears the viewport.
import { useEffect, useState } from "react";
import { ItemCard } from "@/features/landing/components/item-card";
import type { LandingItem } from "@/types/api";

/** How many cards a screen of `width` CSS pixels shows. */
export function cardsPerView(width: number): number {
  if (width < 600) return 1;
  if (width < 1024) return 2;
  if (width < 1440) return 3;
  return 4;
}

function useCardsPerView(): number {
  const [perView, setPerView] = useState(() => cardsPerView(window.innerWidth));
  useEffect(() => {
    const update = () => setPerView(cardsPerView(window.innerWidth));
    window.addEventListener("resize", update);
    return () => window.removeEventListener("resize", update);
  }, []);
  return perView;
}

export function CardCarousel({ items, label }: { items: LandingItem[]; label: string }) {
  const perView = useCardsPerView();
  const [first, setFirst] = useState(0);
  const last = Math.max(0, items.length - perView);
  const start = Math.min(first, last);

  return (
    <div className="card-carousel" role="region" aria-roledescription="carrossel" aria-label={label}>
      <div className="card-carousel__viewport">
        <ul
          className="card-carousel__track"
          style={{ transform: `translateX(-${(start * 100) / perView}%)` }}
        >
          {items.map((item, index) => {
            const visible = index >= start && index < start + perView;
            return (
              <li
                key={item.id}
                className="card-carousel__slide"
                style={{ flexBasis: `${100 / perView}%` }}
                aria-hidden={!visible}
                inert={!visible}
              >
                <ItemCard item={item} />
              </li>
            );
          })}
        </ul>
      </div>
      {last > 0 && (
        <div className="card-carousel__controls">
          <button
            type="button"
            className="card-carousel__control"
            aria-label="Anterior"
            disabled={start === 0}
            onClick={() => setFirst(Math.max(0, start - 1))}
          >
            <span aria-hidden="true">‹</span>
          </button>
          <button
            type="button"
            className="card-carousel__control"
            aria-label="Próximo"
            disabled={start >= last}
            onClick={() => setFirst(Math.min(last, start + 1))}
          >
            <span aria-hidden="true">›</span>
          </button>
        </div>
      )}
    </div>
  );
}

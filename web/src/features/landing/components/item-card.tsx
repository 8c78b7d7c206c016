// A card of a cards section (type 1) or a card carousel (type 3).
import { ItemLink } from "@/features/landing/components/item-link";
import { ItemMedia } from "@/features/landing/components/item-media";
import type { LandingItem } from "@/types/api";

export function ItemCard({ item }: { item: LandingItem }) {
  return (
    <article className="landing-card">
      <ItemMedia item={item} />
      <div className="landing-card__body">
        {item.name && <h3 className="landing-card__name">{item.name}</h3>}
        {item.description && <p className="landing-card__description">{item.description}</p>}
        <ItemLink item={item} context={item.name} />
      </div>
    </article>
  );
}

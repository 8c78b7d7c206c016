import { formatDate } from "@/lib/dates";
import type { MemberTrophy } from "@/types/api";

/** Drawn in the station's colour for a trophy the station gave no image. */
function MedalPlaceholder() {
  return (
    <svg className="trophy-card__medal" viewBox="0 0 64 64" aria-hidden="true" data-testid="trophy-medal">
      <path className="trophy-card__ribbon" d="M20 4h10l6 22h-10zM44 4H34l-6 22h10z" />
      <circle className="trophy-card__disc" cx="32" cy="40" r="18" />
      <path
        className="trophy-card__star"
        d="M32 29l3.2 6.6 7.2 1-5.2 5.1 1.3 7.2L32 45.5l-6.5 3.4 1.3-7.2-5.2-5.1 7.2-1z"
      />
    </svg>
  );
}

export function TrophyCard({ trophy }: { trophy: MemberTrophy }) {
  const grantedOn = formatDate(trophy.createdAt);
  return (
    <article className="trophy-card">
      <div className="trophy-card__picture">
        {trophy.trophy_image ? (
          <img className="trophy-card__image" src={trophy.trophy_image} alt="" loading="lazy" />
        ) : (
          <MedalPlaceholder />
        )}
      </div>
      <h2 className="trophy-card__name">{trophy.name}</h2>
      <p className="trophy-card__description">{trophy.description}</p>
      {grantedOn && <p className="trophy-card__date">Conquistado em {grantedOn}</p>}
    </article>
  );
}

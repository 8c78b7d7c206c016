// /homepage/trofeus (spec 001 "Trophies"): the member's trophies as cards, filtered in the
// browser by name and description ignoring case and accents. A failed load only ends the
// loading (spec 001 section 8): the empty text shows and no toast is raised.
import { useState } from "react";
import { useTrophies } from "@/features/trophies/api/get-trophies";
import { TrophyCard } from "@/features/trophies/components/trophy-card";
import { foldText, matchesFolded } from "@/lib/search-text";
import "./trophies.css";

export const TROPHIES_TITLE = "Meus trofeus";
export const TROPHY_SEARCH_LABEL = "Pesquisar troféu";
export const NO_TROPHIES_TEXT = "Não há Troféus";

const SKELETON_CARDS = 6;

function TrophySkeletons() {
  return (
    <div className="trophy-skeletons" role="status" aria-label="Carregando troféus" aria-busy="true">
      {Array.from({ length: SKELETON_CARDS }, (_, index) => (
        <span key={index} className="trophy-skeletons__card" aria-hidden="true" />
      ))}
    </div>
  );
}

export function TrophiesPage() {
  const trophies = useTrophies();
  const [term, setTerm] = useState("");
  const folded = foldText(term.trim());
  const shown = (trophies.data ?? []).filter((trophy) => matchesFolded(folded, trophy.name, trophy.description));

  return (
    <section className="trophies-page">
      <h1 className="page-title">{TROPHIES_TITLE}</h1>
      <input
        type="search"
        className="page-search"
        aria-label={TROPHY_SEARCH_LABEL}
        placeholder={TROPHY_SEARCH_LABEL}
        value={term}
        onChange={(event) => setTerm(event.target.value)}
      />
      {trophies.isPending ? (
        <TrophySkeletons />
      ) : shown.length === 0 ? (
        <p className="trophies-page__empty">{NO_TROPHIES_TEXT}</p>
      ) : (
        <ul className="trophy-grid" aria-label={TROPHIES_TITLE}>
          {shown.map((trophy) => (
            <li key={trophy.id}>
              <TrophyCard trophy={trophy} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

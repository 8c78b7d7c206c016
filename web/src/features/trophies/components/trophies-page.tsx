// /homepage/trofeus (spec 001 "Trophies"): the member's trophies as cards, filtered in the
// browser by name and description ignoring case and accents. A failed load only ends the
// loading (spec 001 section 8): the empty text shows and no toast is raised.
import { useState } from "react";
import { ListPage, Skeletons } from "@/components/list-page";
import { useTrophies } from "@/features/trophies/api/get-trophies";
import { TrophyCard } from "@/features/trophies/components/trophy-card";
import { foldText, matchesFolded } from "@/lib/search-text";
import "./trophies.css";

export const TROPHIES_TITLE = "Meus trofeus";
export const TROPHY_SEARCH_LABEL = "Pesquisar troféu";
export const NO_TROPHIES_TEXT = "Não há Troféus";

const SKELETON_CARDS = 6;

export function TrophiesPage() {
  const trophies = useTrophies();
  const [term, setTerm] = useState("");
  const folded = foldText(term.trim());
  const shown = (trophies.data ?? []).filter((trophy) => matchesFolded(folded, trophy.name, trophy.description));

  return (
    <ListPage title={TROPHIES_TITLE} search={{ label: TROPHY_SEARCH_LABEL, value: term, onChange: setTerm }}>
      {trophies.isPending ? (
        <Skeletons
          label="Carregando troféus"
          count={SKELETON_CARDS}
          className="trophy-skeletons"
          itemClassName="trophy-skeletons__card skeleton-shimmer"
        />
      ) : shown.length === 0 ? (
        <p className="list-page__empty">{NO_TROPHIES_TEXT}</p>
      ) : (
        <ul className="trophy-grid" aria-label={TROPHIES_TITLE}>
          {shown.map((trophy) => (
            <li key={trophy.id}>
              <TrophyCard trophy={trophy} />
            </li>
          ))}
        </ul>
      )}
    </ListPage>
  );
}

// The home's extras (spec 001 "Home": "a lucky-number info card on mobile and five shortcut
// tiles"), by station settings rather than station ids: the lucky-number card where the
// station shows lucky numbers (`lucky_numbers_access`), on every width (docs/decisions.md,
// "Home extras"), and the shortcut tiles where it turns them on (`home_shortcuts_access`).
import type { ReactNode } from "react";
import { Link } from "react-router";
import { useLuckyNumbers } from "@/features/lucky-numbers";
import { useStation } from "@/features/stations";
import type { Station } from "@/types/api";

export const LUCKY_CARD_LINK_TEXT = "Ver meus números";
export const SHORTCUTS_TITLE = "Atalhos";

/** The lucky-number info card: each campaign's publication text and the way to the numbers. */
export function LuckyNumbersCard() {
  const shown = useStation().lucky_numbers_access;
  const campaigns = useLuckyNumbers();
  const texts = [...new Set((campaigns.data ?? []).map((campaign) => campaign.publication_text))];
  // Nothing to announce without a campaign (or before and after a failed load).
  if (!shown || texts.length === 0) return null;
  return (
    <section className="home-lucky-card" aria-labelledby="home-lucky-card-title">
      <h2 id="home-lucky-card-title" className="home-lucky-card__title">
        Números da sorte
      </h2>
      {texts.map((text) => (
        <p key={text} className="home-lucky-card__text">
          {text}
        </p>
      ))}
      <Link className="button button--primary home-lucky-card__link" to="/homepage/numeros-da-sorte">
        {LUCKY_CARD_LINK_TEXT}
      </Link>
    </section>
  );
}

const iconProps = {
  width: 32,
  height: 32,
  viewBox: "0 0 24 24",
  fill: "none",
  stroke: "currentColor",
  strokeWidth: 1.8,
  strokeLinecap: "round",
  strokeLinejoin: "round",
  "aria-hidden": true,
  focusable: false,
} as const;

/** A document with a bar chart: the station's accounts. */
function AccountsIcon() {
  return (
    <svg {...iconProps}>
      <path d="M6 3h9l4 4v14H6z" />
      <path d="M15 3v4h4" />
      <path d="M9 17v-3M12.5 17v-6M16 17v-4" />
    </svg>
  );
}

export interface HomeShortcut {
  /** Whether the station offers the page the tile opens (beside `home_shortcuts_access`). */
  shown: (station: Station) => boolean;
  label: string;
  icon: () => ReactNode;
  to: string;
}

/**
 * The tiles, in the spec's order, of pages that exist: a tile never leads to 'Página não
 * encontrada'. The service pages (/homepage/politico-sindical, /homepage/consultoria-juridica,
 * /homepage/consultoria-contabil, /homepage/saude) join this list with their own settings as
 * they are built.
 */
export const HOME_SHORTCUTS: HomeShortcut[] = [
  { shown: () => true, label: "Prestação de contas", icon: AccountsIcon, to: "/homepage/prestacao-de-contas" },
];

/** The shortcuts a station's home shows: none unless the station turns them on. */
export function homeShortcuts(station: Station, shortcuts: HomeShortcut[] = HOME_SHORTCUTS): HomeShortcut[] {
  if (!station.home_shortcuts_access) return [];
  return shortcuts.filter((shortcut) => shortcut.shown(station));
}

/** The shortcut tiles; a single qualifying tile shows alone (docs/decisions.md, "Home extras"). */
export function HomeShortcuts({ shortcuts = HOME_SHORTCUTS }: { shortcuts?: HomeShortcut[] }) {
  const tiles = homeShortcuts(useStation(), shortcuts);
  if (tiles.length === 0) return null;
  return (
    <nav className="home-shortcuts" aria-labelledby="home-shortcuts-title">
      <h2 id="home-shortcuts-title" className="home-shortcuts__title">
        {SHORTCUTS_TITLE}
      </h2>
      <ul className="home-shortcuts__list">
        {tiles.map(({ label, icon: Icon, to }) => (
          <li key={to}>
            <Link className="home-shortcut" to={to}>
              <span className="home-shortcut__icon">
                <Icon />
              </span>
              <span className="home-shortcut__label">{label}</span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

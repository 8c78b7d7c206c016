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

/** A flag: the union's political page. */
function PoliticalIcon() {
  return (
    <svg {...iconProps}>
      <path d="M5 21V4" />
      <path d="M5 4h11l-2 4 2 4H5" />
    </svg>
  );
}

/** Scales: the legal consultancy. */
function LegalIcon() {
  return (
    <svg {...iconProps}>
      <path d="M12 4v16M8 20h8M5 7h14" />
      <path d="M5 7l-3 6a3 3 0 0 0 6 0zM19 7l-3 6a3 3 0 0 0 6 0z" />
    </svg>
  );
}

/** A calculator: the accounting consultancy. */
function AccountingIcon() {
  return (
    <svg {...iconProps}>
      <rect x="5" y="3" width="14" height="18" rx="2" />
      <path d="M8 7h8M8.5 12h.01M12 12h.01M15.5 12h.01M8.5 16h.01M12 16h.01M15.5 16h.01" />
    </svg>
  );
}

/** A heart with a pulse: health. */
function HealthIcon() {
  return (
    <svg {...iconProps}>
      <path d="M12 20s-7-4.5-7-10a4 4 0 0 1 7-2.6A4 4 0 0 1 19 10c0 5.5-7 10-7 10z" />
      <path d="M7 12h3l1-2 2 4 1-2h3" />
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
 * The tiles, in the spec's order (spec 001 "Home"): the member services' desks, each where the
 * station offers it (political_access, legal_access, accounting_access, health_access, as
 * their menu entries and their pages' 404), then the accounts. A tile never leads to 'Página
 * não encontrada'.
 */
export const HOME_SHORTCUTS: HomeShortcut[] = [
  { shown: (station) => station.political_access, label: "Político-sindical", icon: PoliticalIcon, to: "/homepage/politico-sindical" },
  { shown: (station) => station.legal_access, label: "Consultoria jurídica", icon: LegalIcon, to: "/homepage/consultoria-juridica" },
  { shown: (station) => station.accounting_access, label: "Consultoria contábil", icon: AccountingIcon, to: "/homepage/consultoria-contabil" },
  { shown: (station) => station.health_access, label: "Saúde", icon: HealthIcon, to: "/homepage/saude" },
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

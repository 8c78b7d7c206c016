// The member area's menu entries by station flags (spec 000 section 6). Entries for single
// stations follow settings, never station ids: numeros-da-sorte the station's
// lucky_numbers_access flag, carteirinha its member_card_access, and legisclub-gasolina
// (closing "Minha conta") its fuel_campaign_access, and 'Fale conosco' the station's external
// chat (support_chat_url, spec 000's "external chat for station 1") or else /homepage/support.
// The spec places neither the news nor the transparency page: 'Notícias' sits beside 'Eventos'
// and 'Arquivos' for every station, and 'Prestação de contas' closes the main menu
// (docs/decisions.md, "Station content"). 'Planos' shows where the station sells plans or
// offers the Enterprise card (enterprise_plan_access).
// The member services' desks ('Jurídico', 'Contábil', 'Saúde', 'Político-sindical') follow
// legal_access, accounting_access, health_access and political_access, before 'Prestação de contas'.
import type { Station } from "@/types/api";

export interface MenuLink {
  label: string;
  /** A member-area path, or an https address when `external`. */
  to: string;
  /** Opens another site (in a new tab) instead of a page of ours. */
  external?: boolean;
}

export interface MemberMenu {
  main: MenuLink[];
  /** The "Minha conta" group, or null when the station turns it off. */
  account: MenuLink[] | null;
}

/** Station 13's members keep their profile in its own app, so its profile menu has no "Perfil". */
export const PROFILE_MENU_HIDDEN_STATION_ID = 13;

export const PROFILE_LINK: MenuLink = { label: "Perfil", to: "/homepage/perfil" };
const INVITES_LINK: MenuLink = { label: "Convites", to: "/homepage/convites-do-usuario" };
const TROPHIES_LINK: MenuLink = { label: "Troféus", to: "/homepage/trofeus" };

const FULL_ACCOUNT_MENU: MenuLink[] = [
  PROFILE_LINK,
  INVITES_LINK,
  TROPHIES_LINK,
  { label: "Vouchers", to: "/homepage/vouchers" },
  { label: "Pedidos", to: "/homepage/pedidos" },
  { label: "Extrato", to: "/homepage/extrato/extratos-totais" },
  { label: "Assinaturas", to: "/homepage/assinaturas" },
];

/** No-CPF stations have no shop nor wallet, so their account menu is reduced. */
const NO_CPF_ACCOUNT_MENU: MenuLink[] = [PROFILE_LINK, INVITES_LINK, TROPHIES_LINK];

/** The fuel campaign, in "Minha conta" where the station offers it (spec 000 section 6). */
export const FUEL_LINK: MenuLink = { label: "Combustível", to: "/homepage/legisclub-gasolina" };

function accountMenu(station: Station): MenuLink[] {
  const base = station.no_cpf ? NO_CPF_ACCOUNT_MENU : FULL_ACCOUNT_MENU;
  return station.fuel_campaign_access ? [...base, FUEL_LINK] : base;
}

/** 'Planos' shows only when the station has plans (spec 002), or offers the Enterprise card. */
function hasPlans(station: Station): boolean {
  return (station.plans ?? []).length > 0 || station.enterprise_plan_access;
}

/** 'Fale conosco': the station's external chat where it has one, else the contact form. */
function supportLink(station: Station): MenuLink {
  // The database stores only https addresses; checked again so no other scheme is ever a link.
  const chat = station.support_chat_url;
  return chat && /^https:\/\//.test(chat)
    ? { label: "Fale conosco", to: chat, external: true }
    : { label: "Fale conosco", to: "/homepage/support" };
}

export function memberMenu(station: Station): MemberMenu {
  const candidates: [boolean, MenuLink][] = [
    [true, { label: "Início", to: "/homepage" }],
    [station.feed_access, { label: "Mural", to: "/homepage/feed" }],
    [true, { label: "Notícias", to: "/homepage/noticias" }],
    [station.events_access, { label: "Eventos", to: "/homepage/calendario" }],
    [station.files_access, { label: "Arquivos", to: "/homepage/downloads" }],
    [station.checkout_access && !station.no_cpf, { label: "Carrinho", to: "/homepage/carrinho" }],
    [station.lucky_numbers_access, { label: "Números da sorte", to: "/homepage/numeros-da-sorte" }],
    // In the main menu, like lucky numbers: a station's own feature, shown even where the
    // "Minha conta" group is off.
    [station.member_card_access, { label: "Carteirinha", to: "/homepage/carteirinha" }],
    [hasPlans(station), { label: "Planos", to: "/homepage/planos" }],
    [station.legal_access, { label: "Jurídico", to: "/homepage/consultoria-juridica" }],
    [station.accounting_access, { label: "Contábil", to: "/homepage/consultoria-contabil" }],
    [station.health_access, { label: "Saúde", to: "/homepage/saude" }],
    [station.political_access, { label: "Político-sindical", to: "/homepage/politico-sindical" }],
    [true, { label: "Prestação de contas", to: "/homepage/prestacao-de-contas" }],
    [true, supportLink(station)],
  ];
  return {
    main: candidates.filter(([shown]) => shown).map(([, link]) => link),
    account: station.my_account_access ? accountMenu(station) : null,
  };
}

/** my_account_access governs "Minha conta" and the profile links alike (spec 000 section 6). */
export function showsProfileMenuLink(station: Station): boolean {
  return station.my_account_access && station.id !== PROFILE_MENU_HIDDEN_STATION_ID;
}

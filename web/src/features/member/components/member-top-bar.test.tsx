import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { PROFILE_MENU_HIDDEN_STATION_ID } from "@/features/member/components/member-menu";
import { SEARCH_FIELD_LABEL, SEARCH_HINT, SEARCH_TITLE } from "@/features/member/components/search-start-page";
import { buildStation, buildWalletBalance, jsonResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { stubApi } from "@/testing/stub-api";
import type { Station } from "@/types/api";

const FULL_ACCOUNT_MENU = [
  ["Perfil", "/homepage/perfil"],
  ["Convites", "/homepage/convites-do-usuario"],
  ["Troféus", "/homepage/trofeus"],
  ["Vouchers", "/homepage/vouchers"],
  ["Pedidos", "/homepage/pedidos"],
  ["Extrato", "/homepage/extrato/extratos-totais"],
  ["Assinaturas", "/homepage/assinaturas"],
];

const ALL_FLAGS_OFF: Partial<Station> = {
  feed_access: false,
  events_access: false,
  files_access: false,
  checkout_access: false,
  my_account_access: false,
};

const BALANCE = "GET /api/users-points/1";

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  signIn();
  stubApi({ [BALANCE]: () => jsonResponse(buildWalletBalance()) });
});

async function renderMemberArea(station?: Station) {
  const rendered = renderApp({ path: "/homepage", station });
  await screen.findByRole("heading", { name: "Início" });
  return rendered;
}

function menuButton() {
  return screen.getByRole("button", { name: "Menu" });
}

function openDrawer() {
  fireEvent.click(menuButton());
  return screen.getByRole("navigation", { name: "Menu principal" });
}

function linksOf(container: HTMLElement) {
  return within(container)
    .getAllByRole("link")
    .map((link) => [link.textContent, link.getAttribute("href")]);
}

function mainEntries(drawer: HTMLElement) {
  const accountGroup = within(drawer).queryByRole("region", { name: "Minha conta" });
  return linksOf(drawer).filter(([label]) => !accountGroup || !within(accountGroup).queryByText(label ?? ""));
}

describe("drawer", () => {
  it("opens from the menu button and closes with Escape, giving the focus back", async () => {
    await renderMemberArea();
    expect(menuButton()).toHaveAttribute("aria-expanded", "false");
    expect(screen.queryByRole("navigation", { name: "Menu principal" })).not.toBeInTheDocument();

    const drawer = openDrawer();
    expect(menuButton()).toHaveAttribute("aria-expanded", "true");
    expect(menuButton()).toHaveAttribute("aria-controls", drawer.id);
    expect(within(drawer).getByRole("button", { name: "Fechar menu" })).toHaveFocus();

    fireEvent.keyDown(document.activeElement ?? document.body, { key: "Escape" });
    expect(screen.queryByRole("navigation", { name: "Menu principal" })).not.toBeInTheDocument();
    expect(menuButton()).toHaveAttribute("aria-expanded", "false");
    expect(menuButton()).toHaveFocus();
  });

  it("closes with 'Fechar menu', a click outside, or after following a link", async () => {
    const { page } = await renderMemberArea();

    fireEvent.click(within(openDrawer()).getByRole("button", { name: "Fechar menu" }));
    expect(screen.queryByRole("navigation", { name: "Menu principal" })).not.toBeInTheDocument();

    openDrawer();
    fireEvent.click(screen.getByTestId("member-drawer-backdrop"));
    expect(screen.queryByRole("navigation", { name: "Menu principal" })).not.toBeInTheDocument();

    fireEvent.click(within(openDrawer()).getByRole("link", { name: "Mural" }));
    expect(page.location.pathname).toBe("/homepage/feed");
    expect(screen.queryByRole("navigation", { name: "Menu principal" })).not.toBeInTheDocument();
  });

  it("lists every entry the station's flags turn on, with the full 'Minha conta' group", async () => {
    await renderMemberArea(buildStation());

    const drawer = openDrawer();
    expect(mainEntries(drawer)).toEqual([
      ["Início", "/homepage"],
      ["Mural", "/homepage/feed"],
      ["Notícias", "/homepage/noticias"],
      ["Eventos", "/homepage/calendario"],
      ["Arquivos", "/homepage/downloads"],
      ["Carrinho", "/homepage/carrinho"],
      ["Prestação de contas", "/homepage/prestacao-de-contas"],
      ["Fale conosco", "/homepage/support"],
    ]);
    expect(linksOf(within(drawer).getByRole("region", { name: "Minha conta" }))).toEqual(FULL_ACCOUNT_MENU);
  });

  it("leaves out what the flags turn off; news and transparency are every station's", async () => {
    await renderMemberArea(buildStation(ALL_FLAGS_OFF));

    const drawer = openDrawer();
    expect(linksOf(drawer)).toEqual([
      ["Início", "/homepage"],
      ["Notícias", "/homepage/noticias"],
      ["Prestação de contas", "/homepage/prestacao-de-contas"],
      ["Fale conosco", "/homepage/support"],
    ]);
    expect(within(drawer).queryByRole("region", { name: "Minha conta" })).not.toBeInTheDocument();
  });

  it("shows each flag's entry on its own", async () => {
    await renderMemberArea(buildStation({ ...ALL_FLAGS_OFF, events_access: true }));

    expect(linksOf(openDrawer())).toEqual([
      ["Início", "/homepage"],
      ["Notícias", "/homepage/noticias"],
      ["Eventos", "/homepage/calendario"],
      ["Prestação de contas", "/homepage/prestacao-de-contas"],
      ["Fale conosco", "/homepage/support"],
    ]);
  });

  it("gives no-CPF stations no cart and the reduced account menu", async () => {
    await renderMemberArea(buildStation({ no_cpf: true }));

    const drawer = openDrawer();
    expect(within(drawer).queryByRole("link", { name: "Carrinho" })).not.toBeInTheDocument();
    expect(linksOf(within(drawer).getByRole("region", { name: "Minha conta" }))).toEqual(FULL_ACCOUNT_MENU.slice(0, 3));
  });

  it("shows no 'Planos' while the station answer carries no plans (they come with membership)", async () => {
    await renderMemberArea();
    expect(within(openDrawer()).queryByRole("link", { name: "Planos" })).not.toBeInTheDocument();
  });

  it("shows 'Planos' when the station has plans", async () => {
    const plan = {
      id: 1,
      external_id: null,
      name: "Essencial",
      description: "",
      benefits: [],
      amount: 2990,
      discount: 0,
      days: 30,
      is_highlighted: false,
      deletedAt: null,
      image: null,
      purchase_text: null,
    };
    await renderMemberArea(buildStation({ plans: [plan] }));
    expect(within(openDrawer()).getByRole("link", { name: "Planos" })).toHaveAttribute("href", "/homepage/planos");
  });

  it("opens the station's external chat from 'Fale conosco' in a new tab where it has one", async () => {
    await renderMemberArea(buildStation({ support_chat_url: "https://chat.example.com/clube" }));
    const chat = within(openDrawer()).getByRole("link", { name: "Fale conosco (abre em nova aba)" });
    expect(chat).toHaveAttribute("href", "https://chat.example.com/clube");
    expect(chat).toHaveAttribute("target", "_blank");
    expect(chat).toHaveAttribute("rel", "noopener noreferrer");
  });

  it("never links a chat address that is not https", async () => {
    await renderMemberArea(buildStation({ support_chat_url: "javascript:alert(1)" }));
    expect(within(openDrawer()).getByRole("link", { name: "Fale conosco" })).toHaveAttribute("href", "/homepage/support");
  });

  it("shows the member services' desks the station offers, before 'Prestação de contas'", async () => {
    await renderMemberArea(
      buildStation({ ...ALL_FLAGS_OFF, legal_access: true, accounting_access: true, health_access: true, political_access: true }),
    );
    expect(linksOf(openDrawer())).toEqual([
      ["Início", "/homepage"],
      ["Notícias", "/homepage/noticias"],
      ["Jurídico", "/homepage/consultoria-juridica"],
      ["Contábil", "/homepage/consultoria-contabil"],
      ["Saúde", "/homepage/saude"],
      ["Político-sindical", "/homepage/politico-sindical"],
      ["Prestação de contas", "/homepage/prestacao-de-contas"],
      ["Fale conosco", "/homepage/support"],
    ]);
  });

  it.each([
    ["legal_access", "Jurídico"],
    ["accounting_access", "Contábil"],
    ["health_access", "Saúde"],
    ["political_access", "Político-sindical"],
  ] as const)("shows the desk of %s alone, and none without it", async (flag, label) => {
    await renderMemberArea(buildStation({ [flag]: true }));
    const drawer = openDrawer();
    const desks = ["Jurídico", "Contábil", "Saúde", "Político-sindical"];
    expect(linksOf(drawer).map(([text]) => text).filter((text) => desks.includes(text ?? ""))).toEqual([label]);
  });

  it("shows 'Planos' without plans where the station offers the Enterprise card", async () => {
    await renderMemberArea(buildStation({ plans: [], enterprise_plan_access: true }));
    expect(within(openDrawer()).getByRole("link", { name: "Planos" })).toHaveAttribute("href", "/homepage/planos");
  });
});

describe("search", () => {
  it("goes to /homepage/search/{term}", async () => {
    const { page } = await renderMemberArea();

    fireEvent.change(screen.getByRole("searchbox", { name: "Termo de busca" }), { target: { value: " camisa azul " } });
    fireEvent.click(screen.getByRole("button", { name: "Buscar" }));

    expect(page.location.pathname).toBe("/homepage/search/camisa%20azul");
  });

  it.each(["", "   "])("does not submit the empty search %j", async (term) => {
    const { page } = await renderMemberArea();
    const box = screen.getByRole("searchbox", { name: "Termo de busca" });

    fireEvent.change(box, { target: { value: term } });
    expect(screen.getByRole("button", { name: "Buscar" })).toBeDisabled();
    fireEvent.submit(screen.getByRole("search"));

    expect(page.location.pathname).toBe("/homepage");
  });
});

describe("/homepage/search without a term", () => {
  const renderSearchPage = async () => {
    const rendered = renderApp({ path: "/homepage/search" });
    await screen.findByRole("heading", { level: 1, name: SEARCH_TITLE });
    return rendered;
  };

  it("is a page of its own: a heading, a hint tied to its search field", async () => {
    await renderSearchPage();

    expect(screen.queryByRole("heading", { name: "Página não encontrada" })).not.toBeInTheDocument();
    const field = screen.getByRole("searchbox", { name: SEARCH_FIELD_LABEL });
    expect(field).toHaveAccessibleDescription(SEARCH_HINT);
  });

  it("goes to the results of the term typed", async () => {
    const { page } = await renderSearchPage();
    const form = screen.getByRole("searchbox", { name: SEARCH_FIELD_LABEL }).closest("form") as HTMLFormElement;

    fireEvent.change(within(form).getByRole("searchbox"), { target: { value: "curso de libras" } });
    fireEvent.click(within(form).getByRole("button", { name: "Buscar" }));

    expect(page.location.pathname).toBe("/homepage/search/curso%20de%20libras");
  });

  it("does not submit an empty search", async () => {
    const { page } = await renderSearchPage();
    const form = screen.getByRole("searchbox", { name: SEARCH_FIELD_LABEL }).closest("form") as HTMLFormElement;

    fireEvent.change(within(form).getByRole("searchbox"), { target: { value: "  " } });
    expect(within(form).getByRole("button", { name: "Buscar" })).toBeDisabled();
    fireEvent.submit(form);

    expect(page.location.pathname).toBe("/homepage/search");
  });
});

describe("profile menu", () => {
  it("links to the profile and to /logout", async () => {
    await renderMemberArea();

    const account = screen.getByRole("navigation", { name: "Conta" });
    expect(linksOf(account)).toEqual([
      ["Perfil", "/homepage/perfil"],
      ["Sair", "/logout"],
    ]);
  });

  it(`has no profile link on station ${PROFILE_MENU_HIDDEN_STATION_ID}`, async () => {
    await renderMemberArea(buildStation({ id: PROFILE_MENU_HIDDEN_STATION_ID }));

    expect(linksOf(screen.getByRole("navigation", { name: "Conta" }))).toEqual([["Sair", "/logout"]]);
  });

  it("has no profile link when the station turns 'Minha conta' off", async () => {
    await renderMemberArea(buildStation({ my_account_access: false }));

    expect(linksOf(screen.getByRole("navigation", { name: "Conta" }))).toEqual([["Sair", "/logout"]]);
  });
});

describe("balance", () => {
  it("shows the wallet balance in the station's currency, linking to the statement", async () => {
    await renderMemberArea();

    const balance = await screen.findByRole("link", { name: "Saldo 150,50 Pontos" });
    expect(balance).toHaveAttribute("href", "/homepage/extrato/extratos-totais");
  });

  it("applies the station's multiplier and currency position", async () => {
    await renderMemberArea(
      buildStation({ currency_multiplier: 0.01, currency_name: "R$", currency_name_position: "before_currency" }),
    );

    expect(await screen.findByRole("link", { name: "Saldo R$ 1,51" })).toBeInTheDocument();
  });

  it("shows the balance without a link where the menu has no statement", async () => {
    await renderMemberArea(buildStation({ no_cpf: true }));

    expect(await screen.findByText("150,50 Pontos")).toBeInTheDocument();
    expect(screen.queryByRole("link", { name: /Saldo/ })).not.toBeInTheDocument();
  });

  it("shows nothing when the balance cannot be read", async () => {
    const api = stubApi({ [BALANCE]: () => jsonResponse({ error: "Erro" }, 403) });
    await renderMemberArea();

    await waitFor(() => expect(api.callsTo(BALANCE)).toHaveLength(1));
    expect(screen.queryByText("Saldo")).not.toBeInTheDocument();
  });
});

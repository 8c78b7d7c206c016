import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import {
  buildSuggestionCreated,
  buildTheme,
  POLITICAL_STATION,
  SUGGEST_CALL,
  THEMES_CALL,
} from "@/features/political/testing/political-fixtures";
import { buildStation, buildWalletBalance, jsonResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { stubApi, type ApiHandler } from "@/testing/stub-api";

const POLITICAL = "/homepage/politico-sindical";
const THEMES = `${POLITICAL}/temas`;

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  signIn();
});

function stubPolitical(handlers: Record<string, ApiHandler> = {}) {
  return stubApi({ "GET /api/users-points/1": () => jsonResponse(buildWalletBalance()), ...handlers });
}

const notifications = () => screen.getByRole("region", { name: "Notificações" });

describe("the political landing", () => {
  it("leads to the themes and the suggestion form", async () => {
    stubPolitical({ [THEMES_CALL]: () => jsonResponse([]) });
    const { page } = renderApp({ path: POLITICAL, station: POLITICAL_STATION });
    expect(await screen.findByRole("heading", { level: 1, name: "Político-sindical" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Sugerir um tema" })).toHaveAttribute("href", `${THEMES}/sugerir`);
    fireEvent.click(screen.getByRole("link", { name: "Ver temas" }));
    await waitFor(() => expect(page.location.pathname).toBe(THEMES));
    // The file's first render pays for the app's first paint: slow on a busy machine.
  }, 15_000);

  it.each([POLITICAL, THEMES, `${THEMES}/sugerir`])("%s is not found where the station offers no political desk", async (path) => {
    const api = stubPolitical();
    renderApp({ path, station: buildStation({ political_access: false }) });
    expect(await screen.findByRole("heading", { name: "Página não encontrada" })).toBeInTheDocument();
    expect(api.callsTo(THEMES_CALL)).toHaveLength(0);
  });
});

describe("the themes", () => {
  it("shows 'Temas de interesse' as cards, each opening its detail in a dialog", async () => {
    stubPolitical({
      [THEMES_CALL]: () => jsonResponse([buildTheme(), buildTheme({ id: 5, titulo: "Previdência", interessados: [], processos: [] })]),
    });
    renderApp({ path: THEMES, station: POLITICAL_STATION });
    expect(await screen.findByRole("heading", { level: 1, name: "Temas de interesse" })).toBeInTheDocument();
    const cards = await screen.findAllByRole("article");
    expect(cards.map((card) => within(card).getByRole("heading", { level: 2 }).textContent)).toEqual([
      "Reajuste salarial dos servidores",
      "Previdência",
    ]);

    const open = within(cards[0] as HTMLElement).getByRole("button", { name: "Ver detalhes" });
    expect(open).toHaveAccessibleDescription("Reajuste salarial dos servidores");
    open.focus();
    fireEvent.click(open);

    const dialog = screen.getByRole("dialog", { name: "Reajuste salarial dos servidores" });
    expect(dialog).toHaveAttribute("aria-modal", "true");
    expect(dialog.contains(document.activeElement)).toBe(true);
    expect(within(dialog).getByText("Projeto de lei")).toBeInTheDocument();
    const section = (name: string) => within(dialog).getByRole("region", { name });
    expect(within(section("Interessados")).getAllByRole("listitem").map((item) => item.textContent)).toEqual([
      "Servidores ativos",
      "Aposentados",
    ]);
    expect(within(section("Itens em destaque")).getByText("Índice de reajuste").nextElementSibling).toHaveTextContent(
      "Favorável à reposição integral da inflação",
    );
    expect(within(section("Ações do sindicato")).getByText("14/03/2025").nextElementSibling).toHaveTextContent(
      "Reunião com a comissão de orçamento",
    );
    expect(within(section("Processos")).getByText("PL 1234/2025").nextElementSibling).toHaveTextContent("Assembleia Legislativa");

    // Escape closes it and the focus returns to the card's button.
    fireEvent.keyDown(dialog, { key: "Escape" });
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(open).toHaveFocus();

    // A theme without interessados nor processos leaves those sections out.
    fireEvent.click(within(cards[1] as HTMLElement).getByRole("button", { name: "Ver detalhes" }));
    const other = screen.getByRole("dialog", { name: "Previdência" });
    expect(within(other).queryByRole("region", { name: "Interessados" })).not.toBeInTheDocument();
    expect(within(other).queryByRole("region", { name: "Processos" })).not.toBeInTheDocument();
    fireEvent.click(within(other).getByRole("button", { name: "Fechar" }));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  it("says 'Não foram encontrados temas.' when there are none", async () => {
    stubPolitical({ [THEMES_CALL]: () => jsonResponse([]) });
    renderApp({ path: THEMES, station: POLITICAL_STATION });
    expect(await screen.findByText("Não foram encontrados temas.")).toBeInTheDocument();
    expect(screen.queryAllByRole("article")).toHaveLength(0);
  });

  it("suggests a theme from the 'Sugerir tema' dialog: 'Sucesso' and the dialog closes", async () => {
    const api = stubPolitical({
      [THEMES_CALL]: () => jsonResponse([]),
      [SUGGEST_CALL]: () => jsonResponse(buildSuggestionCreated(), 201),
    });
    renderApp({ path: THEMES, station: POLITICAL_STATION });
    const suggest = await screen.findByRole("button", { name: "Sugerir tema" });
    suggest.focus();
    fireEvent.click(suggest);

    const dialog = screen.getByRole("dialog", { name: "Sugerir tema" });
    const description = within(dialog).getByRole("textbox", { name: "Descrição" });
    expect(description).toHaveFocus();
    fireEvent.click(within(dialog).getByRole("button", { name: "Enviar" }));
    expect(description).toHaveAccessibleDescription("Esse campo é obrigatório");
    expect(api.callsTo(SUGGEST_CALL)).toHaveLength(0);

    fireEvent.change(description, { target: { value: " Piso salarial da categoria " } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Enviar" }));

    expect(await within(notifications()).findByText("Solicitação enviada com sucesso.")).toBeInTheDocument();
    expect(within(notifications()).getByText("Sucesso")).toBeInTheDocument();
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(suggest).toHaveFocus();
    expect(api.bodySentTo(SUGGEST_CALL)).toEqual({ description: "Piso salarial da categoria" });
  });

  it("shows a refused suggestion's first message, else 'Erro', in the dialog", async () => {
    let answer = () =>
      jsonResponse({ messages: ["Muitas solicitações em pouco tempo. Aguarde alguns minutos e tente novamente."] }, 429);
    stubPolitical({ [THEMES_CALL]: () => jsonResponse([]), [SUGGEST_CALL]: () => answer() });
    renderApp({ path: THEMES, station: POLITICAL_STATION });
    fireEvent.click(await screen.findByRole("button", { name: "Sugerir tema" }));
    const dialog = screen.getByRole("dialog", { name: "Sugerir tema" });
    fireEvent.change(within(dialog).getByRole("textbox", { name: "Descrição" }), { target: { value: "Tema" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Enviar" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent(
      "Muitas solicitações em pouco tempo. Aguarde alguns minutos e tente novamente.",
    );

    answer = () => new Response("", { status: 500 });
    fireEvent.click(within(dialog).getByRole("button", { name: "Enviar" }));
    await waitFor(() => expect(within(dialog).getByRole("alert")).toHaveTextContent(/^Erro$/));
    expect(screen.getByRole("dialog", { name: "Sugerir tema" })).toBeInTheDocument();
  });
});

describe("the suggestion page", () => {
  it("sends the suggestion and goes to the themes", async () => {
    const api = stubPolitical({
      [THEMES_CALL]: () => jsonResponse([]),
      [SUGGEST_CALL]: () => jsonResponse(buildSuggestionCreated(), 201),
    });
    const { page } = renderApp({ path: `${THEMES}/sugerir`, station: POLITICAL_STATION });
    expect(await screen.findByRole("heading", { level: 1, name: "Sugerir tema" })).toBeInTheDocument();
    fireEvent.change(screen.getByRole("textbox", { name: "Descrição" }), { target: { value: "Teletrabalho" } });
    fireEvent.click(screen.getByRole("button", { name: "Enviar" }));
    await waitFor(() => expect(page.location.pathname).toBe(THEMES));
    expect(within(notifications()).getByText("Solicitação enviada com sucesso.")).toBeInTheDocument();
    expect(api.bodySentTo(SUGGEST_CALL)).toEqual({ description: "Teletrabalho" });
  });
});

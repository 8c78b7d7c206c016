import { fireEvent, screen, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { groupByYear } from "@/features/content/api/transparency";
import { buildDocument, TRANSPARENCY_PAGE_CALL, WALLET_CALL } from "@/features/content/testing/content-fixtures";
import { buildWalletBalance, jsonResponse, pageResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { stubApi, type ApiHandler } from "@/testing/stub-api";

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  signIn();
});

function stub(handlers: Record<string, ApiHandler>) {
  return stubApi({ [WALLET_CALL]: () => jsonResponse(buildWalletBalance()), ...handlers });
}

const PATH = "/homepage/prestacao-de-contas";

/** Each year's heading with the names of its documents, in the page's order. */
function shownGroups() {
  return screen.getAllByRole("heading", { level: 2 }).map((heading) => [
    heading.textContent,
    within(screen.getByRole("region", { name: heading.textContent ?? "" }))
      .getAllByRole("link")
      .map((link) => link.textContent),
  ]);
}

describe("transparency", () => {
  it("groups documents by year in the server's order, newest first, those without a year last", () => {
    const groups = groupByYear([
      buildDocument({ id: 3, nome: "Balancete - 2025", year: "2025" }),
      buildDocument({ id: 2, nome: "Balancete - 2024", year: "2024" }),
      buildDocument({ id: 4, nome: "Relatório/2024", year: "2024" }),
      buildDocument({ id: 1, nome: "Ata", year: null }),
    ]);
    expect(groups.map((group) => [group.year, group.documents.map((document) => document.id)])).toEqual([
      ["2025", [3]],
      ["2024", [2, 4]],
      [null, [1]],
    ]);
  });

  it("shows placeholders while the documents load", async () => {
    stub({ [TRANSPARENCY_PAGE_CALL()]: () => new Promise<Response>(() => undefined) });
    renderApp({ path: PATH });
    expect(await screen.findByRole("heading", { level: 1, name: "Prestação de contas" })).toBeInTheDocument();
    expect(screen.getByRole("status", { name: "Carregando documentos" })).toBeInTheDocument();
  });

  it("shows each year with its documents, each a link to its file", async () => {
    stub({
      [TRANSPARENCY_PAGE_CALL()]: () =>
        pageResponse([
          buildDocument({ id: 2 }),
          buildDocument({ id: 1, nome: "Balancete - 2024", year: "2024", anexo: { url: "/api/media/t/2024.pdf", content_type: "application/pdf" } }),
        ]),
    });
    renderApp({ path: PATH });

    const years = await screen.findAllByRole("heading", { level: 2 });
    expect(years.map((heading) => heading.textContent)).toEqual(["2025", "2024"]);
    const of2024 = screen.getByRole("region", { name: "2024" });
    expect(within(of2024).getByRole("link", { name: "Balancete - 2024" })).toHaveAttribute("href", "/api/media/t/2024.pdf");
    expect(screen.queryByRole("button", { name: "Carregar mais documentos" })).not.toBeInTheDocument();
  });

  it("appends the next page into the year it continues and the older years after it", async () => {
    const api = stub({
      [TRANSPARENCY_PAGE_CALL()]: () =>
        pageResponse(
          [
            buildDocument({ id: 1, nome: "Ata - 2025", year: "2025" }),
            buildDocument({ id: 2, nome: "Balancete - 2025", year: "2025" }),
            buildDocument({ id: 3, nome: "Parecer - 2024", year: "2024" }),
          ],
          6,
        ),
      [TRANSPARENCY_PAGE_CALL(3)]: () =>
        pageResponse(
          [
            // The last item of the first page again (one published meanwhile shifted the
            // list): shown once.
            buildDocument({ id: 3, nome: "Parecer - 2024", year: "2024" }),
            buildDocument({ id: 4, nome: "Relatório/2024", year: "2024" }),
            buildDocument({ id: 5, nome: "Balancete - 2023", year: "2023" }),
            buildDocument({ id: 6, nome: "Estatuto", year: null }),
          ],
          7,
        ),
    });
    renderApp({ path: PATH });

    expect(await screen.findByRole("region", { name: "2024" })).toBeInTheDocument();
    expect(shownGroups()).toEqual([
      ["2025", ["Ata - 2025", "Balancete - 2025"]],
      ["2024", ["Parecer - 2024"]],
    ]);
    fireEvent.click(screen.getByRole("button", { name: "Carregar mais documentos" }));

    expect(await screen.findByRole("region", { name: "Outros" })).toBeInTheDocument();
    expect(api.callsTo(TRANSPARENCY_PAGE_CALL(3))).toHaveLength(1);
    expect(shownGroups()).toEqual([
      ["2025", ["Ata - 2025", "Balancete - 2025"]],
      ["2024", ["Parecer - 2024", "Relatório/2024"]],
      ["2023", ["Balancete - 2023"]],
      ["Outros", ["Estatuto"]],
    ]);
    expect(screen.getAllByRole("heading", { level: 2, name: "2024" })).toHaveLength(1);
  });

  it("says 'Não há documentos a serem exibidos.' when there is none, or quietly when they cannot be read", async () => {
    stub({ [TRANSPARENCY_PAGE_CALL()]: () => pageResponse([]) });
    const { unmount } = renderApp({ path: PATH });
    expect(await screen.findByText("Não há documentos a serem exibidos.")).toBeInTheDocument();
    unmount();

    stub({ [TRANSPARENCY_PAGE_CALL()]: () => jsonResponse({ messages: ["Você não possui autorização para acessar esta página."] }, 403) });
    renderApp({ path: PATH });
    expect(await screen.findByText("Não há documentos a serem exibidos.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Tentar novamente" })).toBeInTheDocument();
  });
});

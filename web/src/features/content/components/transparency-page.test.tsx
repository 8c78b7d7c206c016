import { screen, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { groupByYear } from "@/features/content/api/transparency";
import { buildDocument, TRANSPARENCY_CALL, WALLET_CALL } from "@/features/content/testing/content-fixtures";
import { buildWalletBalance, jsonResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { stubApi, type ApiHandler } from "@/testing/stub-api";

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  signIn();
});

function stub(handler: ApiHandler) {
  return stubApi({ [WALLET_CALL]: () => jsonResponse(buildWalletBalance()), [TRANSPARENCY_CALL]: handler });
}

const PATH = "/homepage/prestacao-de-contas";

describe("transparency", () => {
  it("groups documents by year, newest first, those without a year last", () => {
    const groups = groupByYear([
      buildDocument({ id: 1, nome: "Ata", year: null }),
      buildDocument({ id: 2, nome: "Balancete - 2024", year: "2024" }),
      buildDocument({ id: 3, nome: "Balancete - 2025", year: "2025" }),
      buildDocument({ id: 4, nome: "Relatório/2024", year: "2024" }),
    ]);
    expect(groups.map((group) => [group.year, group.documents.map((document) => document.id)])).toEqual([
      ["2025", [3]],
      ["2024", [2, 4]],
      [null, [1]],
    ]);
  });

  it("shows placeholders while the documents load", async () => {
    stub(() => new Promise<Response>(() => undefined));
    renderApp({ path: PATH });
    expect(await screen.findByRole("heading", { level: 1, name: "Prestação de contas" })).toBeInTheDocument();
    expect(screen.getByRole("status", { name: "Carregando documentos" })).toBeInTheDocument();
  });

  it("shows each year with its documents, each a link to its file", async () => {
    stub(() =>
      jsonResponse([
        buildDocument({ id: 1, nome: "Balancete - 2024", year: "2024", anexo: { url: "/api/media/t/2024.pdf", content_type: "application/pdf" } }),
        buildDocument({ id: 2 }),
      ]),
    );
    renderApp({ path: PATH });

    const years = await screen.findAllByRole("heading", { level: 2 });
    expect(years.map((heading) => heading.textContent)).toEqual(["2025", "2024"]);
    const of2024 = screen.getByRole("region", { name: "2024" });
    expect(within(of2024).getByRole("link", { name: "Balancete - 2024" })).toHaveAttribute("href", "/api/media/t/2024.pdf");
  });

  it("says 'Não há documentos a serem exibidos.' when there is none, or quietly when they cannot be read", async () => {
    stub(() => jsonResponse([]));
    const { unmount } = renderApp({ path: PATH });
    expect(await screen.findByText("Não há documentos a serem exibidos.")).toBeInTheDocument();
    unmount();

    stub(() => jsonResponse({ messages: ["Você não possui autorização para acessar esta página."] }, 403));
    renderApp({ path: PATH });
    expect(await screen.findByText("Não há documentos a serem exibidos.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Tentar novamente" })).toBeInTheDocument();
  });
});

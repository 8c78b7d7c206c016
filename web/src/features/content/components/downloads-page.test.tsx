import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { buildDownload, buildDownloadCard, DOWNLOADS_PAGE_CALL, WALLET_CALL } from "@/features/content/testing/content-fixtures";
import { catchDownloads } from "@/testing/downloads";
import { buildWalletBalance, jsonResponse, pageResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { stubApi, type ApiHandler } from "@/testing/stub-api";

let downloads: ReturnType<typeof catchDownloads>;

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  signIn();
  downloads = catchDownloads();
});

afterEach(() => downloads.undo());

function stub(handlers: Record<string, ApiHandler>) {
  return stubApi({ [WALLET_CALL]: () => jsonResponse(buildWalletBalance()), ...handlers });
}

const PRIVATE = buildDownload({
  id: 5,
  name: "convencao-coletiva",
  title: "Convenção Coletiva",
  private: true,
  file: "/api/downloads/5/file",
});

describe("downloads list", () => {
  it("shows placeholders while the files load", async () => {
    stub({ [DOWNLOADS_PAGE_CALL()]: () => new Promise<Response>(() => undefined) });
    renderApp({ path: "/homepage/downloads" });
    expect(await screen.findByRole("heading", { level: 1, name: "Arquivos" })).toBeInTheDocument();
    expect(screen.getByRole("status", { name: "Carregando arquivos" })).toBeInTheDocument();
  });

  it("lists the files, marking those only members may read", async () => {
    stub({ [DOWNLOADS_PAGE_CALL()]: () => pageResponse([PRIVATE, buildDownloadCard()]) });
    renderApp({ path: "/homepage/downloads" });

    const list = await screen.findByRole("list", { name: "Arquivos" });
    const [first, second] = within(list).getAllByRole("article");
    expect(within(first!).getByRole("heading", { name: "Convenção Coletiva" })).toBeInTheDocument();
    expect(within(first!).getByText("Exclusivo para associados")).toBeInTheDocument();
    expect(within(second!).queryByText("Exclusivo para associados")).not.toBeInTheDocument();
    expect(within(second!).getByRole("link", { name: "Ver Mais: Estatuto Social" })).toHaveAttribute("href", "/homepage/downloads/1");
  });

  it("says 'Não há arquivos para download' when there is none", async () => {
    stub({ [DOWNLOADS_PAGE_CALL()]: () => pageResponse([]) });
    renderApp({ path: "/homepage/downloads" });
    expect(await screen.findByText("Não há arquivos para download")).toBeInTheDocument();
  });

  it("says the files could not be loaded, and tries again", async () => {
    let fail = true;
    stub({ [DOWNLOADS_PAGE_CALL()]: () => (fail ? jsonResponse({ messages: ["Você não possui autorização para acessar esta página."] }, 403) : pageResponse([buildDownloadCard()])) });
    renderApp({ path: "/homepage/downloads" });

    expect(await screen.findByRole("alert")).toHaveTextContent("Não foi possível carregar os arquivos.");
    fail = false;
    fireEvent.click(screen.getByRole("button", { name: "Tentar novamente" }));
    expect(await screen.findByRole("heading", { name: "Estatuto Social" })).toBeInTheDocument();
  });
});

describe("download page", () => {
  it("shows a public file with a plain link to it", async () => {
    stub({ "GET /api/downloads/1": () => jsonResponse(buildDownload()) });
    renderApp({ path: "/homepage/downloads/1" });

    expect(await screen.findByRole("heading", { level: 1, name: "Estatuto Social" })).toBeInTheDocument();
    expect(screen.getByText("Leia com atenção.")).toBeInTheDocument();
    expect(screen.getByText(/estatuto-social · 239 KB/)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Baixar arquivo" })).toHaveAttribute("href", "/api/media/downloads/7/estatuto.pdf");
  });

  it("asks for a private file with the member's token and hands it to the browser", async () => {
    const api = stub({
      "GET /api/downloads/5": () => jsonResponse(PRIVATE),
      "GET /api/downloads/5/file": () => new Response(new Uint8Array([0x25, 0x50, 0x44, 0x46]), { headers: { "Content-Type": "application/pdf" } }),
    });
    renderApp({ path: "/homepage/downloads/5" });

    fireEvent.click(await screen.findByRole("button", { name: "Baixar arquivo" }));
    await waitFor(() => expect(downloads.saved.map((file) => file.fileName)).toEqual(["convencao-coletiva.pdf"]));
    expect(downloads.saved[0]?.blob.size).toBe(4);
    expect(api.authorizationSentTo("GET /api/downloads/5/file")).toBe("Bearer test-token");
  });

  it("says when a private file could not be downloaded", async () => {
    stub({
      "GET /api/downloads/5": () => jsonResponse(PRIVATE),
      "GET /api/downloads/5/file": () => jsonResponse({ error: "Arquivo não encontrado" }, 404),
    });
    renderApp({ path: "/homepage/downloads/5" });

    fireEvent.click(await screen.findByRole("button", { name: "Baixar arquivo" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Não foi possível baixar o arquivo. Tente novamente.");
  });

  it("says the file is not there when the server says so", async () => {
    stub({ "GET /api/downloads/9": () => jsonResponse({ error: "Arquivo não encontrado" }, 404) });
    renderApp({ path: "/homepage/downloads/9" });
    expect(await screen.findByRole("heading", { level: 1, name: "Arquivo não encontrado" })).toBeInTheDocument();
  });
});

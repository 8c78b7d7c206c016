import { screen, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { buildServicePage, LEGAL_STATION } from "@/features/services/testing/services-fixtures";
import { buildStation, buildWalletBalance, jsonResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { stubApi, type ApiHandler } from "@/testing/stub-api";

const BASE = "/homepage/politico-sindical";
const POLITICAL_STATION = buildStation({ political_access: true });
const POLITICAL_PAGE_CALL = "GET /api/services/political";

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  signIn();
});

function stubServices(handlers: Record<string, ApiHandler>) {
  return stubApi({ "GET /api/users-points/1": () => jsonResponse(buildWalletBalance()), ...handlers });
}

const politicalPage = buildServicePage({
  desk: "political",
  contatos: [{ name: "Carlos Menezes", role: "Diretor político", email: "politico@example.com", phone: "" }],
  playlists: [
    { slug: "cafe-com-politica", title: "Café com Política", url: "https://www.youtube-nocookie.com/embed/videoseries?list=PLcafe" },
  ],
});

describe("the political desk's shared pages", () => {
  it("lists the desk's own contacts", async () => {
    stubServices({ [POLITICAL_PAGE_CALL]: () => jsonResponse(politicalPage) });
    renderApp({ path: `${BASE}/contato`, station: POLITICAL_STATION });
    const contacts = await screen.findByRole("list", { name: "Contato" });
    expect(within(contacts).getByRole("heading", { name: "Carlos Menezes" })).toBeInTheDocument();
  }, 15_000);

  it("plays 'Café com Política' and says when 'Transforma' has no videos", async () => {
    stubServices({ [POLITICAL_PAGE_CALL]: () => jsonResponse(politicalPage) });
    const first = renderApp({ path: `${BASE}/cafe-com-politica`, station: POLITICAL_STATION });
    expect(await screen.findByTitle(/Café com Política/)).toHaveAttribute(
      "src",
      "https://www.youtube-nocookie.com/embed/videoseries?list=PLcafe",
    );
    first.unmount();
    renderApp({ path: `${BASE}/transforma`, station: POLITICAL_STATION });
    expect(await screen.findByRole("heading", { level: 1, name: "Transforma" })).toBeInTheDocument();
    expect(document.querySelector("iframe")).toBeNull();
  });

  it("is not found where the station does not offer the desk", async () => {
    const api = stubServices({ [POLITICAL_PAGE_CALL]: () => jsonResponse(politicalPage) });
    renderApp({ path: `${BASE}/contato`, station: LEGAL_STATION });
    expect(await screen.findByRole("heading", { name: "Página não encontrada" })).toBeInTheDocument();
    expect(api.callsTo(POLITICAL_PAGE_CALL)).toHaveLength(0);
  });
});

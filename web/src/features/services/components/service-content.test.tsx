import { screen, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { schedulesPath } from "@/features/calendar";
import { eventsWindow } from "@/features/services/components/service-events-page";
import { buildServicePage, LEGAL_PAGE_CALL, LEGAL_STATION } from "@/features/services/testing/services-fixtures";
import { buildSchedule } from "@/features/calendar/testing/schedule-fixtures";
import { buildWalletBalance, jsonResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { stubApi, type ApiHandler } from "@/testing/stub-api";

const BASE = "/homepage/consultoria-juridica";

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  signIn();
});

function stubServices(handlers: Record<string, ApiHandler>) {
  return stubApi({ "GET /api/users-points/1": () => jsonResponse(buildWalletBalance()), ...handlers });
}

describe("a desk's own pages", () => {
  it("lists its contacts", async () => {
    stubServices({ [LEGAL_PAGE_CALL]: () => jsonResponse(buildServicePage()) });
    renderApp({ path: `${BASE}/contato`, station: LEGAL_STATION });
    expect(await screen.findByRole("heading", { level: 1, name: "Contato" })).toBeInTheDocument();
    const contacts = await screen.findByRole("list", { name: "Contato" });
    expect(within(contacts).getByRole("heading", { name: "Dra. Marina Alves" })).toBeInTheDocument();
    expect(within(contacts).getByText("Advogada trabalhista")).toBeInTheDocument();
    expect(within(contacts).getByRole("link", { name: "juridico@example.com" })).toHaveAttribute("href", "mailto:juridico@example.com");
    expect(within(contacts).getByRole("link", { name: "(11) 3333-4444" })).toHaveAttribute("href", "tel:+551133334444");
  });

  it("shows its texts a paragraph at a time, and the empty text without one", async () => {
    stubServices({ [LEGAL_PAGE_CALL]: () => jsonResponse(buildServicePage({ informacoes: "" })) });
    const first = renderApp({ path: `${BASE}/orientacoes`, station: LEGAL_STATION });
    expect(await screen.findByRole("heading", { level: 1, name: "Orientações" })).toBeInTheDocument();
    expect(await screen.findByText("Agende pelo portal.")).toBeInTheDocument();
    expect(screen.getByText("Leve seus documentos.")).toBeInTheDocument();
    first.unmount();

    renderApp({ path: `${BASE}/informacoes`, station: LEGAL_STATION });
    expect(await screen.findByText("Não há dados para visualização")).toBeInTheDocument();
  });

  it("embeds the playlist with a title, or says there is none", async () => {
    let page = buildServicePage();
    stubServices({ [LEGAL_PAGE_CALL]: () => jsonResponse(page) });
    const first = renderApp({ path: `${BASE}/videos`, station: LEGAL_STATION });
    const frame = await screen.findByTitle("Vídeos do jurídico");
    expect(frame.tagName).toBe("IFRAME");
    expect(frame).toHaveAttribute("src", "https://www.youtube.com/embed/videoseries?list=PL123");
    first.unmount();

    page = buildServicePage({ playlists: [] });
    renderApp({ path: `${BASE}/videos`, station: LEGAL_STATION });
    expect(await screen.findByText("Não há dados para visualização")).toBeInTheDocument();
    expect(document.querySelector("iframe")).toBeNull();
  });

  it("shows the station's coming schedules as its events", async () => {
    const call = `GET /api${schedulesPath(7, eventsWindow(new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo" }).format(new Date())))}`;
    stubServices({ [call]: () => jsonResponse([buildSchedule({ start: "2099-12-10T17:00:00Z", end: "2099-12-10T21:00:00Z" })]) });
    renderApp({ path: `${BASE}/eventos`, station: LEGAL_STATION });
    const events = await screen.findByRole("list", { name: "Eventos" });
    const link = within(events).getByRole("link", { name: "Torneio de futebol society" });
    expect(link).toHaveAttribute("href", "/homepage/calendario/1");
    expect(within(events).getByText("10/12/2099 14:00 – 10/12/2099 18:00")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Ver o calendário completo" })).toHaveAttribute("href", "/homepage/calendario");
  });
});

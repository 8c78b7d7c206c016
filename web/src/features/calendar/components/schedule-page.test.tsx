import { fireEvent, screen } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { buildSchedule, schedulesCall } from "@/features/calendar/testing/schedule-fixtures";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { buildWalletBalance, jsonResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { stubApi, type ApiHandler } from "@/testing/stub-api";

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  signIn();
});

function stubSchedule(handlers: Record<string, ApiHandler>) {
  return stubApi({ "GET /api/users-points/1": () => jsonResponse(buildWalletBalance()), ...handlers });
}

describe("an event's page", () => {
  it("shows the picture, the start and end on the station's clock, the day and the description", async () => {
    const api = stubSchedule({
      "GET /api/schedules//2": () => jsonResponse(buildSchedule({ id: 2, day: { description: "Dia do associado" } })),
    });
    const { container } = renderApp({ path: "/homepage/calendario/2" });

    expect(await screen.findByRole("heading", { level: 1, name: "Torneio de futebol society" })).toBeInTheDocument();
    expect(screen.getByText("Início").nextElementSibling).toHaveTextContent("10/12/2026 14:00");
    expect(screen.getByText("Fim").nextElementSibling).toHaveTextContent("10/12/2026 18:00");
    expect(screen.getByText("Dia do associado")).toBeInTheDocument();
    expect(screen.getByText("Times de sete jogadores.")).toBeInTheDocument();
    expect(container.querySelector('img[src="/api/media/demo/calendar/4.png"]')).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Voltar ao calendário" })).toHaveAttribute(
      "href",
      "/homepage/calendario?data=2026-12-10",
    );
    expect(api.callsTo("GET /api/schedules//2")).toHaveLength(1);
  });

  it("is opened from the calendar and leads back to the same view", async () => {
    stubSchedule({
      [schedulesCall("semana", "2026-12-10")]: () => jsonResponse([buildSchedule({ id: 2 })]),
      "GET /api/schedules//2": () => jsonResponse(buildSchedule({ id: 2 })),
    });
    const { page } = renderApp({ path: "/homepage/calendario?visao=semana&data=2026-12-10" });

    fireEvent.click(await screen.findByRole("link", { name: "Torneio de futebol society" }));
    expect(await screen.findByRole("heading", { level: 1, name: "Torneio de futebol society" })).toBeInTheDocument();
    expect(page.location.pathname).toBe("/homepage/calendario/2");
    expect(screen.getByRole("link", { name: "Voltar ao calendário" })).toHaveAttribute(
      "href",
      "/homepage/calendario?visao=semana&data=2026-12-10",
    );
  });

  it("says an unknown or hidden event is not available", async () => {
    stubSchedule({ "GET /api/schedules//9": () => jsonResponse({ error: "Evento não encontrado." }, 404) });
    renderApp({ path: "/homepage/calendario/9" });
    expect(await screen.findByRole("heading", { level: 1, name: "Evento não encontrado" })).toBeInTheDocument();
  });

  it("asks for nothing when the address names no event", async () => {
    const api = stubSchedule({});
    renderApp({ path: "/homepage/calendario/abc" });
    expect(await screen.findByRole("heading", { level: 1, name: "Evento não encontrado" })).toBeInTheDocument();
    expect(api.calls.filter((call) => call.url.includes("schedules"))).toHaveLength(0);
  });

  it("offers to try again when the event cannot be loaded", async () => {
    stubSchedule({ "GET /api/schedules//2": () => jsonResponse({ error: "Erro interno no servidor" }, 400) });
    renderApp({ path: "/homepage/calendario/2" });
    expect(await screen.findByRole("alert")).toHaveTextContent("Não foi possível carregar o evento.");
    expect(screen.getByRole("button", { name: "Tentar novamente" })).toBeInTheDocument();
  });
});

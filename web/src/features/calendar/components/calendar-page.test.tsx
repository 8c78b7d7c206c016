import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { longDay, todayIn } from "@/features/calendar/calendar-dates";
import { buildSchedule, schedulesCall } from "@/features/calendar/testing/schedule-fixtures";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { buildWalletBalance, jsonResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { stubApi, type ApiHandler } from "@/testing/stub-api";

const DECEMBER = "/homepage/calendario?visao=mes&data=2026-12-10";

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  signIn();
});

function stubCalendar(handlers: Record<string, ApiHandler>) {
  return stubApi({ "GET /api/users-points/1": () => jsonResponse(buildWalletBalance()), ...handlers });
}

const SCHEDULES = [
  buildSchedule({ id: 1, name: "Aula de natação", start: "2026-12-10T10:00:00Z", end: "2026-12-10T11:00:00Z" }),
  buildSchedule({ id: 2 }),
  buildSchedule({
    id: 3,
    name: "Retiro de fim de semana",
    start: "2026-12-19T12:00:00Z",
    end: "2026-12-20T20:00:00Z",
    day: { description: "Feriado" },
  }),
];

const dayCell = (container: HTMLElement, day: string) => container.querySelector<HTMLElement>(`td[data-day="${day}"]`)!;

describe("calendar", () => {
  it("asks for the month's six weeks and places each event on its days", async () => {
    const api = stubCalendar({ [schedulesCall("mes", "2026-12-10")]: () => jsonResponse(SCHEDULES) });
    const { container } = renderApp({ path: DECEMBER });

    expect(await screen.findByRole("heading", { level: 1, name: "Eventos" })).toBeInTheDocument();
    expect(screen.getByRole("heading", { level: 2, name: "Dezembro de 2026" })).toBeInTheDocument();
    const tenth = await screen.findByRole("list", { name: "Eventos de Quinta-feira, 10/12/2026" });
    const links = within(tenth).getAllByRole("link");
    expect(links.map((link) => link.textContent)).toEqual(["07:00 Aula de natação", "14:00 Torneio de futebol society"]);
    expect(links[1]).toHaveAttribute("href", "/homepage/calendario/2");
    // Two days: the start time on the first only.
    expect(within(dayCell(container, "2026-12-19")).getByRole("link")).toHaveTextContent("09:00 Retiro de fim de semana");
    expect(within(dayCell(container, "2026-12-20")).getByRole("link")).toHaveTextContent(/^Retiro de fim de semana$/);
    expect(dayCell(container, "2026-12-11").querySelector("a")).toBeNull();
    // The grid's first and last days come from the neighbouring months.
    expect(container.querySelectorAll("tbody td")).toHaveLength(42);
    expect(dayCell(container, "2026-11-29")).toHaveClass("calendar-month__day--outside");
    expect(screen.getAllByRole("columnheader").map((header) => header.textContent)).toEqual([
      "Dom",
      "Seg",
      "Ter",
      "Qua",
      "Qui",
      "Sex",
      "Sáb",
    ]);
    expect(api.callsTo(schedulesCall("mes", "2026-12-10"))).toHaveLength(1);
    expect(schedulesCall("mes", "2026-12-10")).toBe(
      "GET /api/schedules/?where[station_id]=7&where[end][gte]=2026-11-28T00%3A00%3A00.000Z&where[start][lte]=2027-01-11T00%3A00%3A00.000Z",
    );
  });

  it("shows the week in 15-minute slots, overlapping events side by side", async () => {
    const overlapping = buildSchedule({ id: 4, name: "Palestra", start: "2026-12-10T18:00:00Z", end: "2026-12-10T18:10:00Z" });
    stubCalendar({ [schedulesCall("semana", "2026-12-10")]: () => jsonResponse([...SCHEDULES, overlapping]) });
    renderApp({ path: "/homepage/calendario?visao=semana&data=2026-12-10" });

    expect(await screen.findByRole("heading", { level: 2, name: "06/12/2026 a 12/12/2026" })).toBeInTheDocument();
    const thursday = await screen.findByRole("list", { name: "Quinta-feira, 10/12/2026" });
    const [swim, match, talk] = within(thursday).getAllByRole("listitem");
    // 07:00-08:00 is slots 28 to 31; 14:00-18:00 slots 56 to 71; 15:00-15:10 one slot beside it.
    expect(swim).toHaveStyle({ gridRow: "29 / 33", gridColumn: "1" });
    expect(swim).toHaveTextContent("07:00 – 08:00");
    expect(match).toHaveStyle({ gridRow: "57 / 73", gridColumn: "1" });
    expect(talk).toHaveStyle({ gridRow: "61 / 62", gridColumn: "2" });
    expect(within(match!).getByRole("link", { name: "Torneio de futebol society" })).toBeInTheDocument();
    expect(screen.getAllByRole("heading", { level: 3 })).toHaveLength(7);
  });

  it("lists the month's days that have events, with their times", async () => {
    stubCalendar({ [schedulesCall("lista", "2026-12-10")]: () => jsonResponse(SCHEDULES) });
    renderApp({ path: "/homepage/calendario?visao=lista&data=2026-12-10" });

    const days = await screen.findByRole("list", { name: "Eventos por dia" });
    expect(within(days).getAllByRole("heading", { level: 3 }).map((heading) => heading.textContent)).toEqual([
      "Quinta-feira, 10/12/2026",
      "Sábado, 19/12/2026",
      "Domingo, 20/12/2026",
    ]);
    const saturday = screen.getByRole("list", { name: "Sábado, 19/12/2026" });
    expect(saturday).toHaveTextContent("19/12/2026 09:00 – 20/12/2026 17:00");
    expect(saturday).toHaveTextContent("Feriado");
  });

  it("says so when the period has no events", async () => {
    stubCalendar({ [schedulesCall("lista", "2026-12-10")]: () => jsonResponse([]) });
    renderApp({ path: "/homepage/calendario?visao=lista&data=2026-12-10" });
    expect(await screen.findByText("Não há eventos neste período.")).toBeInTheDocument();
  });

  it("moves between periods and views, and back to today", async () => {
    const today = todayIn("America/Sao_Paulo");
    const api = stubCalendar({
      [schedulesCall("mes", "2026-12-10")]: () => jsonResponse(SCHEDULES),
      [schedulesCall("mes", "2027-01-10")]: () => jsonResponse([]),
      [schedulesCall("dia", "2027-01-10")]: () => jsonResponse([]),
      [schedulesCall("dia", "2027-01-09")]: () => jsonResponse([]),
      [schedulesCall("dia", today)]: () => jsonResponse([]),
    });
    const { page } = renderApp({ path: DECEMBER });
    await screen.findByRole("list", { name: "Eventos de Quinta-feira, 10/12/2026" });

    fireEvent.click(screen.getByRole("button", { name: "Próximo mês" }));
    expect(await screen.findByRole("heading", { level: 2, name: "Janeiro de 2027" })).toBeInTheDocument();
    expect(page.location.search).toBe("?visao=mes&data=2027-01-10");

    fireEvent.click(screen.getByRole("button", { name: "Dia" }));
    expect(await screen.findByRole("heading", { level: 2, name: "Domingo, 10/01/2027" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Dia" })).toHaveAttribute("aria-pressed", "true");
    fireEvent.click(screen.getByRole("button", { name: "Dia anterior" }));
    expect(await screen.findByRole("heading", { level: 2, name: "Sábado, 09/01/2027" })).toBeInTheDocument();

    fireEvent.click(screen.getByRole("button", { name: "Hoje" }));
    expect(await screen.findByRole("heading", { level: 2, name: longDay(today) })).toBeInTheDocument();
    expect(page.location.search).toBe(`?visao=dia&data=${today}`);
    await waitFor(() => expect(api.callsTo(schedulesCall("dia", today))).toHaveLength(1));
  });

  it("offers to try again when the events cannot be loaded", async () => {
    let fail = true;
    stubCalendar({
      [schedulesCall("mes", "2026-12-10")]: () =>
        fail ? jsonResponse({ error: "Calendário não disponível." }, 404) : jsonResponse(SCHEDULES),
    });
    renderApp({ path: DECEMBER });

    expect(await screen.findByRole("alert")).toHaveTextContent("Não foi possível carregar os eventos.");
    fail = false;
    fireEvent.click(screen.getByRole("button", { name: "Tentar novamente" }));
    expect(await screen.findByRole("list", { name: "Eventos de Quinta-feira, 10/12/2026" })).toBeInTheDocument();
  });

  it("shows a placeholder while the events load", async () => {
    stubCalendar({ [schedulesCall("mes", "2026-12-10")]: () => new Promise<Response>(() => undefined) });
    renderApp({ path: DECEMBER });
    expect(await screen.findByRole("status", { name: "Carregando eventos" })).toBeInTheDocument();
  });
});

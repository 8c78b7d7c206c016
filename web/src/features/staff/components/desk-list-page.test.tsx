import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { NO_DESKS } from "@/features/staff/components/desk-list-page";
import { STAFF_ONLY_TEXT } from "@/features/staff/components/ops-forbidden";
import {
  buildDeskAppointment,
  buildDeskGrant,
  DESK_ME,
  deskPage,
  stubDeskConsole,
  stubDeskOnly,
} from "@/features/staff/testing/desk-fixtures";
import { renderOps } from "@/features/staff/testing/ops-fixtures";
import { jsonResponse } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";

describe("the console's 'Atendimento'", () => {
  it("lists the desks by station, each a link to its page", async () => {
    stubDeskConsole(
      {},
      {
        desks: [
          buildDeskGrant(),
          buildDeskGrant({ desk: "political", can_act: false }),
          buildDeskGrant({ station_id: 2, station_name: "Sindicato Exemplo", desk: "health" }),
        ],
      },
    );
    await renderOps("/ops/desk");

    expect(await screen.findByRole("heading", { level: 1, name: "Atendimento" })).toBeInTheDocument();
    const demo = screen.getByRole("region", { name: "Clube Filia Demo" });
    expect(within(demo).getByRole("link", { name: "Consultoria jurídica" })).toHaveAttribute("href", "/ops/desk/1/legal");
    expect(within(demo).getByRole("link", { name: "Político-sindical" })).toHaveAttribute("href", "/ops/desk/1/political");
    expect(within(demo).getByText("(somente consulta)")).toBeInTheDocument();
    const other = screen.getByRole("region", { name: "Sindicato Exemplo" });
    expect(within(other).getByRole("link", { name: "Saúde" })).toHaveAttribute("href", "/ops/desk/2/health");
    const nav = screen.getByRole("navigation", { name: "Console" });
    expect(within(nav).getByRole("link", { name: "Atendimento" })).toHaveAttribute("aria-current", "page");
  });

  it("says when the staff member's stations offer no desk", async () => {
    stubDeskConsole({ [DESK_ME]: () => jsonResponse({ error: STAFF_ONLY_TEXT }, 403) });
    await renderOps("/ops/desk");
    expect(await screen.findByText(NO_DESKS)).toBeInTheDocument();
  });
});

describe("staff with a desk grant only", () => {
  it("are led from the console's front page to their desks, with nothing else in the navigation", async () => {
    stubDeskOnly();
    const { page } = renderApp({ path: "/ops" });

    const nav = await screen.findByRole("navigation", { name: "Console" });
    await waitFor(() => expect(page.location.pathname).toBe("/ops/desk"));
    expect(within(nav).getAllByRole("link").map((link) => link.textContent)).toEqual(["Atendimento"]);
    expect(screen.getByText("Ana Advogada")).toBeInTheDocument();
    expect(await screen.findByRole("link", { name: "Consultoria jurídica" })).toHaveAttribute("href", "/ops/desk/1/legal");
  });

  it("work their desk", async () => {
    stubDeskOnly({
      "GET /api/ops/stations/1/desk/legal/appointments?page=1&per_page=20": deskPage("appointments", [buildDeskAppointment()]),
    });
    renderApp({ path: "/ops/desk/1/legal" });
    expect(await screen.findByRole("heading", { level: 1, name: "Consultoria jurídica · Clube Filia Demo" })).toBeInTheDocument();
    expect(await screen.findByRole("article", { name: /Nº 12/ })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Confirmar" })).toBeEnabled();
  });

  it("get the 403 page on the console's own pages", async () => {
    stubDeskOnly();
    renderApp({ path: "/ops/tarefas" });
    expect(await screen.findByRole("heading", { name: "Erro 403" })).toBeInTheDocument();
    expect(screen.getByText(STAFF_ONLY_TEXT)).toBeInTheDocument();
  });
});

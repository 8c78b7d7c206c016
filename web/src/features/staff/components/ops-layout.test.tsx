import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { VIEWER_NOTE } from "@/features/staff/components/ops-layout";
import { STAFF_ONLY_TEXT } from "@/features/staff/components/ops-forbidden";
import {
  buildOpsMe,
  buildOpsStation,
  OPS_ME,
  OPS_QUEUES,
  OPS_STATIONS,
  renderOps,
  stubOps,
  VIEWER,
} from "@/features/staff/testing/ops-fixtures";
import { DESK_ME } from "@/features/staff/testing/desk-fixtures";
import { jsonResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { stubApi } from "@/testing/stub-api";

const overviewCalls = {
  [OPS_QUEUES]: () => jsonResponse([]),
  [OPS_STATIONS]: () => jsonResponse([buildOpsStation()]),
};

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
});

describe("console access", () => {
  it("sends a visitor to /login without asking the API", async () => {
    const { fetchMock } = stubApi({});
    const { page } = renderApp({ path: "/ops/tarefas" });

    await waitFor(() => expect(page.location.pathname).toBe("/login"));
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("shows a member the 403 page", async () => {
    signIn();
    stubApi({
      [OPS_ME]: () => jsonResponse({ error: STAFF_ONLY_TEXT }, 403),
      [DESK_ME]: () => jsonResponse({ error: STAFF_ONLY_TEXT }, 403),
    });
    const { page } = renderApp({ path: "/ops" });

    expect(await screen.findByRole("heading", { name: "Erro 403" })).toBeInTheDocument();
    expect(screen.getByText(STAFF_ONLY_TEXT)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Voltar ao início" })).toHaveAttribute("href", "/");
    expect(screen.queryByRole("navigation", { name: "Console" })).not.toBeInTheDocument();
    expect(page.location.pathname).toBe("/ops");
  });

  it("sends an expired session to /login", async () => {
    signIn();
    stubApi({ [OPS_ME]: () => jsonResponse({ error: "Sessão expirada" }, 401) });
    const { page } = renderApp({ path: "/ops" });

    await waitFor(() => expect(page.location.pathname).toBe("/login"));
  });

  it("says when the console could not be opened and tries again", async () => {
    let calls = 0;
    signIn();
    stubApi({
      [OPS_ME]: () => {
        calls += 1;
        return calls === 1 ? jsonResponse({ error: "Não encontrado" }, 404) : jsonResponse(buildOpsMe());
      },
      ...overviewCalls,
    });
    renderApp({ path: "/ops" });

    expect(await screen.findByRole("heading", { name: "Não foi possível abrir o console" })).toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Tentar novamente" }));
    expect(await screen.findByRole("navigation", { name: "Console" })).toBeInTheDocument();
  });
});

describe("console layout", () => {
  it("has the console's navigation and who is signed in with their role and scope", async () => {
    stubOps(overviewCalls);
    await renderOps("/ops");

    const nav = screen.getByRole("navigation", { name: "Console" });
    expect(
      within(nav)
        .getAllByRole("link")
        .map((link) => [link.textContent, link.getAttribute("href")]),
    ).toEqual([
      ["Visão geral", "/ops"],
      ["Tarefas", "/ops/tarefas"],
      ["Denúncias", "/ops/denuncias"],
      ["Assinaturas", "/ops/assinaturas"],
      ["Recargas", "/ops/recargas"],
      ["Suporte", "/ops/suporte"],
      ["Auditoria", "/ops/auditoria"],
      ["Atendimento", "/ops/desk"],
    ]);
    expect(within(nav).getByRole("link", { name: "Visão geral" })).toHaveAttribute("aria-current", "page");
    expect(screen.getByText("Equipe Demo")).toBeInTheDocument();
    expect(screen.getByText("Suporte · Todas as estações")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Sair" })).toHaveAttribute("href", "/logout");
    expect(screen.queryByRole("note")).not.toBeInTheDocument();
  });

  it("names the station of a one-station grant", async () => {
    stubOps(overviewCalls, { station: { id: 1, name: "Clube Filia Demo" } });
    await renderOps("/ops");

    expect(screen.getByText("Suporte · Clube Filia Demo")).toBeInTheDocument();
  });

  it("tells a viewer that the console is read-only", async () => {
    stubOps(overviewCalls, VIEWER);
    await renderOps("/ops");

    expect(screen.getByRole("note")).toHaveTextContent(VIEWER_NOTE);
    expect(screen.getByText("Consulta · Todas as estações")).toBeInTheDocument();
  });
});

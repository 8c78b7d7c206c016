import { fireEvent, screen, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { buildInvitation, INVITATIONS_CALL } from "@/features/invitations/testing/invitation-fixtures";
import { invitationDate } from "@/features/invitations/components/invitations-page";
import { buildWalletBalance, jsonResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { stubApi, type ApiHandler } from "@/testing/stub-api";

const PATH = "/homepage/convites-do-usuario";

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  signIn();
});

function stubInvitations(handler: ApiHandler) {
  return stubApi({
    "GET /api/users-points/1": () => jsonResponse(buildWalletBalance()),
    [INVITATIONS_CALL]: handler,
  });
}

const rows = (table: HTMLElement) => within(table).getAllByRole("row").slice(1);

describe("Meus convites", () => {
  it("shows a placeholder while the invitations load", async () => {
    stubInvitations(() => new Promise<Response>(() => undefined));
    renderApp({ path: PATH });
    expect(await screen.findByRole("heading", { name: "Meus convites" })).toBeInTheDocument();
    expect(screen.getByRole("status", { name: "Carregando convites" })).toBeInTheDocument();
  });

  it("lists names and dates under Nome and Data, and finds a name typed without accents", async () => {
    stubInvitations(() =>
      jsonResponse([
        buildInvitation({ id: 22, invited: { id: 22, name: "João Pereira" }, createdAt: "2026-11-24T18:30:00Z" }),
        buildInvitation(),
      ]),
    );
    renderApp({ path: PATH });

    const table = await screen.findByRole("table", { name: "Meus convites" });
    expect(within(table).getByRole("columnheader", { name: "Nome" })).toBeInTheDocument();
    expect(within(table).getByRole("columnheader", { name: "Data" })).toBeInTheDocument();
    expect(rows(table).map((row) => row.textContent)).toEqual([
      `João Pereira${invitationDate("2026-11-24T18:30:00Z")}`,
      `Lúcia Andrade${invitationDate("2026-11-20T13:05:00Z")}`,
    ]);
    expect(invitationDate("2026-11-24T18:30:00Z")).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);

    fireEvent.change(screen.getByRole("searchbox", { name: "Pesquisar por nome" }), { target: { value: "LUCIA" } });
    const found = rows(screen.getByRole("table", { name: "Meus convites" }));
    expect(found).toHaveLength(1);
    expect(within(found[0]!).getByRole("cell", { name: "Lúcia Andrade" })).toBeInTheDocument();
    fireEvent.change(screen.getByRole("searchbox", { name: "Pesquisar por nome" }), { target: { value: "ninguém" } });
    expect(screen.getByText("Não há convites")).toBeInTheDocument();
    expect(screen.queryByRole("table")).toBeNull();
  });

  it("says there are none when nobody signed up through the link", async () => {
    stubInvitations(() => jsonResponse([]));
    renderApp({ path: PATH });
    expect(await screen.findByText("Não há convites")).toBeInTheDocument();
  });
});

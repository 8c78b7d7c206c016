import { fireEvent, screen, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { buildTrophy, TROPHIES_CALL } from "@/features/trophies/testing/trophy-fixtures";
import { buildWalletBalance, jsonResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { stubApi, type ApiHandler } from "@/testing/stub-api";

const TROPHIES_PATH = "/homepage/trofeus";

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  signIn();
});

function stubTrophies(handler: ApiHandler) {
  return stubApi({
    "GET /api/users-points/1": () => jsonResponse(buildWalletBalance()),
    [TROPHIES_CALL]: handler,
  });
}

const notifications = () => screen.getByRole("region", { name: "Notificações" });

describe("trophies", () => {
  it("shows placeholders while the trophies load", async () => {
    stubTrophies(() => new Promise<Response>(() => undefined));
    renderApp({ path: TROPHIES_PATH });
    expect(await screen.findByRole("heading", { name: "Meus trofeus" })).toBeInTheDocument();
    expect(screen.getByRole("status", { name: "Carregando troféus" })).toBeInTheDocument();
  });

  it("shows each trophy's picture, name, description and the day it was granted", async () => {
    stubTrophies(() =>
      jsonResponse([
        buildTrophy({ id: 2, name: "Maratonista", description: "Dez atividades.", createdAt: "2026-12-05T15:00:00Z" }),
        buildTrophy({ id: 1, trophy_image: null }),
      ]),
    );
    const { container } = renderApp({ path: TROPHIES_PATH });

    const list = await screen.findByRole("list", { name: "Meus trofeus" });
    const [newest, first] = within(list).getAllByRole("article");
    expect(within(newest!).getByRole("heading", { name: "Maratonista" })).toBeInTheDocument();
    expect(within(newest!).getByText("Dez atividades.")).toBeInTheDocument();
    expect(within(newest!).getByText("Conquistado em 05/12/2026")).toBeInTheDocument();
    expect(container.querySelector(`img[src="${buildTrophy().trophy_image}"]`)).toBeInTheDocument();
    expect(within(first!).getByRole("heading", { name: "Primeiro passo" })).toBeInTheDocument();
    expect(within(first!).getByText("Conquistado em 21/11/2026")).toBeInTheDocument();
    expect(within(first!).getByTestId("trophy-medal")).toBeInTheDocument();
  });

  it("finds an accented name from a term typed without accents, in any case", async () => {
    stubTrophies(() =>
      jsonResponse([
        buildTrophy({ id: 2, name: "Campeão da Votação", description: "Votou em dez enquetes." }),
        buildTrophy({ id: 1, name: "Primeiro passo" }),
      ]),
    );
    renderApp({ path: TROPHIES_PATH });
    await screen.findByText("Primeiro passo");

    fireEvent.change(screen.getByRole("searchbox", { name: "Pesquisar troféu" }), { target: { value: "CAMPEAO " } });

    expect(screen.getByRole("heading", { name: "Campeão da Votação" })).toBeInTheDocument();
    expect(screen.queryByText("Primeiro passo")).not.toBeInTheDocument();
  });

  it("searches the descriptions too, and says 'Não há Troféus' when nothing matches", async () => {
    stubTrophies(() => jsonResponse([buildTrophy({ name: "Maratonista", description: "Concluiu dez atividades." })]));
    renderApp({ path: TROPHIES_PATH });
    const box = await screen.findByPlaceholderText("Pesquisar troféu");
    await screen.findByText("Maratonista");

    fireEvent.change(box, { target: { value: "atividades" } });
    expect(screen.getByText("Maratonista")).toBeInTheDocument();

    fireEvent.change(box, { target: { value: "xyz" } });
    expect(screen.getByText("Não há Troféus")).toBeInTheDocument();
    expect(screen.queryByRole("list", { name: "Meus trofeus" })).not.toBeInTheDocument();
  });

  it("says 'Não há Troféus' when the member has none", async () => {
    const api = stubTrophies(() => jsonResponse([]));
    renderApp({ path: TROPHIES_PATH });
    expect(await screen.findByText("Não há Troféus")).toBeInTheDocument();
    expect(api.callsTo(TROPHIES_CALL)).toHaveLength(1);
  });

  it("stops loading quietly when the trophies cannot be read: the empty text, no toast", async () => {
    stubTrophies(() => jsonResponse({ error: "Você não possui autorização para acessar esta página." }, 403));
    renderApp({ path: TROPHIES_PATH });

    expect(await screen.findByText("Não há Troféus")).toBeInTheDocument();
    expect(screen.queryByRole("status", { name: "Carregando troféus" })).not.toBeInTheDocument();
    expect(within(notifications()).queryByText("Erro")).not.toBeInTheDocument();
    expect(within(notifications()).queryByText(/autorização/)).not.toBeInTheDocument();
  });
});

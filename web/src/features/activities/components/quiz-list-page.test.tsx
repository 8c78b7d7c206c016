import { screen, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { homeHandlers } from "@/features/activities/testing/activity-fixtures";
import { buildQuizCard, QUIZZES_CALL } from "@/features/activities/testing/research-fixtures";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { buildWalletBalance, jsonResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { stubApi, type ApiHandler } from "@/testing/stub-api";

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  signIn();
});

function stubQuizzes(handler: ApiHandler) {
  return stubApi({
    "GET /api/users-points/1": () => jsonResponse(buildWalletBalance()),
    [QUIZZES_CALL]: handler,
    ...homeHandlers(),
  });
}

describe("quiz list", () => {
  it("shows placeholders while the quizzes load", async () => {
    stubQuizzes(() => new Promise<Response>(() => undefined));
    renderApp({ path: "/homepage/quizzes" });
    expect(await screen.findByRole("status", { name: "Carregando quizzes" })).toBeInTheDocument();
  });

  it("shows each quiz's name, cashback, description, expiration and 'Participar'", async () => {
    stubQuizzes(() =>
      jsonResponse([
        buildQuizCard({ id: 12, research_id: 5, name: "Quiz: conheça seus direitos" }),
        buildQuizCard({ id: 13, research_id: 6, name: "Quiz encerrado", availability: "limit_reached" }),
      ]),
    );
    renderApp({ path: "/homepage/quizzes" });

    const list = await screen.findByRole("list", { name: "Quizzes" });
    const [open, done] = within(list).getAllByRole("article");
    expect(within(open!).getByRole("heading", { name: "Quiz: conheça seus direitos" })).toBeInTheDocument();
    expect(within(open!).getByText("120,00 Pontos")).toBeInTheDocument();
    expect(within(open!).getByText("Teste o que você sabe.")).toBeInTheDocument();
    expect(within(open!).getByText("Expira em 31/12/2026")).toBeInTheDocument();
    expect(within(open!).getByRole("link", { name: "Participar" })).toHaveAttribute(
      "href",
      "/homepage/quizzes/quiz?research=5&action=12",
    );
    expect(within(done!).queryByRole("link", { name: "Participar" })).not.toBeInTheDocument();
  });

  it("says so when there is no quiz", async () => {
    const api = stubQuizzes(() => jsonResponse([]));
    renderApp({ path: "/homepage/quizzes" });
    expect(await screen.findByText("Não há quizzes no momento.")).toBeInTheDocument();
    expect(api.callsTo(QUIZZES_CALL)).toHaveLength(1);
  });
});

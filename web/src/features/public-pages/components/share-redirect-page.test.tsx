import { screen, waitFor } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { stubFetchAnswers } from "@/features/jobs/testing/job-fixtures";
import { replaceLocation } from "@/features/public-pages/browser-location";
import { VISITOR_ID_KEY } from "@/features/public-pages/visitor-id";
import { jsonResponse } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";

vi.mock("@/features/public-pages/browser-location", () => ({ assignLocation: vi.fn(), replaceLocation: vi.fn() }));

const SHARED_LINK = "https://www.instagram.com/p/filia-demo/";
const ERROR_TITLE = "Não foi possível abrir este compartilhamento.";

function sharedAction(link = SHARED_LINK) {
  return { action: { id: 5, name: "Compartilhe a campanha", contents: [{ text: "Veja!", link }] } };
}

function bodyOf(fetchMock: ReturnType<typeof stubFetchAnswers>, call = 0): unknown {
  const [, init] = fetchMock.mock.calls[call] ?? [];
  return JSON.parse(init?.body as string);
}

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  vi.mocked(replaceLocation).mockClear();
});

describe("/compartilhamento", () => {
  it("validates the share with this browser's visitor id, then opens the shared link in place", async () => {
    const fetchMock = stubFetchAnswers(() => jsonResponse(sharedAction()));
    renderApp({ path: "/compartilhamento?source=12&campaign=5" });

    expect(screen.getByText("Aguarde um momento...")).toBeInTheDocument();
    await waitFor(() => expect(replaceLocation).toHaveBeenCalledExactlyOnceWith(SHARED_LINK));

    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe("/api/validate-sharing");
    expect(init?.method).toBe("POST");
    const visitorId = window.localStorage.getItem(VISITOR_ID_KEY);
    expect(visitorId).toMatch(/^[0-9a-f]{32}$/);
    expect(bodyOf(fetchMock)).toEqual({ action_id: 5, user_id: 12, visitor_id: visitorId });
  });

  it("keeps the same visitor id for later visits", async () => {
    window.localStorage.setItem(VISITOR_ID_KEY, "visitante-conhecido");
    const fetchMock = stubFetchAnswers(() => jsonResponse(sharedAction()));
    renderApp({ path: "/compartilhamento?source=12&campaign=5" });

    await waitFor(() => expect(replaceLocation).toHaveBeenCalled());
    expect(bodyOf(fetchMock)).toEqual({ action_id: 5, user_id: 12, visitor_id: "visitante-conhecido" });
  });

  it("shows the API's message when the share is not valid", async () => {
    stubFetchAnswers(() => jsonResponse({ error: "Compartilhamento não encontrado" }, 404));
    renderApp({ path: "/compartilhamento?source=12&campaign=999" });

    expect(await screen.findByRole("heading", { name: ERROR_TITLE })).toBeInTheDocument();
    expect(screen.getByText("Compartilhamento não encontrado")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Voltar ao início" })).toHaveAttribute("href", "/");
    expect(replaceLocation).not.toHaveBeenCalled();
  });

  it.each(["/compartilhamento", "/compartilhamento?source=12", "/compartilhamento?campaign=5", "/compartilhamento?source=abc&campaign=5"])(
    "explains that %s is incomplete, without asking the API",
    (path) => {
      const fetchMock = vi.fn();
      vi.stubGlobal("fetch", fetchMock);
      renderApp({ path });

      expect(screen.getByRole("heading", { name: ERROR_TITLE })).toBeInTheDocument();
      expect(
        screen.getByText("O link de compartilhamento está incompleto. Confira o endereço e tente novamente."),
      ).toBeInTheDocument();
      expect(fetchMock).not.toHaveBeenCalled();
    },
  );

  it("never follows a link that is not a web address", async () => {
    stubFetchAnswers(() => jsonResponse(sharedAction("javascript:alert(1)")));
    renderApp({ path: "/compartilhamento?source=12&campaign=5" });

    expect(await screen.findByText("Este compartilhamento não tem um endereço para abrir.")).toBeInTheDocument();
    expect(replaceLocation).not.toHaveBeenCalled();
  });
});

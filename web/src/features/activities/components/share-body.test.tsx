import { fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Activity } from "@/types/api";
import { activityCall, buildActivity, homeHandlers, publicActivityCall } from "@/features/activities/testing/activity-fixtures";
import { networkLinks } from "@/features/activities/components/share-body";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { buildWalletBalance, jsonResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { stubApi, type ApiHandler } from "@/testing/stub-api";

const BALANCE = "GET /api/users-points/1";
const SHORT_LINK = "POST /api/short-links";
const LINK = { code: "AB23CD45", url: "https://demo.example.com/s/AB23CD45", target: "/compartilhamento?source=1&campaign=41" };

function setNavigator(name: "clipboard" | "share", value: unknown) {
  Object.defineProperty(window.navigator, name, { value, configurable: true });
}

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  signIn();
});

afterEach(() => {
  setNavigator("clipboard", undefined);
  setNavigator("share", undefined);
});

const share = (overrides: Partial<Activity> = {}) =>
  buildActivity({ id: 41, name: "Compartilhe o clube", type_id: 5, ...overrides });

function stubShare(activity: Activity, handlers: Record<string, ApiHandler> = {}) {
  return stubApi({
    [BALANCE]: () => jsonResponse(buildWalletBalance()),
    [activityCall(activity.id)]: () => jsonResponse(activity),
    [SHORT_LINK]: () => jsonResponse(LINK),
    ...homeHandlers(),
    ...handlers,
  });
}

async function openShare(activity: Activity) {
  renderApp({ path: `/homepage/atividades/${activity.id}` });
  await screen.findByRole("heading", { name: activity.name, level: 1 });
}

describe("share (type 5)", () => {
  it("asks the member's short link and shows it with the networks, opened in a new tab", async () => {
    const api = stubShare(share());
    await openShare(share());

    expect(await screen.findByLabelText("Seu link de compartilhamento")).toHaveValue(LINK.url);
    expect(api.bodiesOf(SHORT_LINK)).toEqual([{ action_id: 41 }]);
    const whatsapp = screen.getByRole("link", { name: "WhatsApp" });
    expect(whatsapp).toHaveAttribute("href", `https://wa.me/?text=${encodeURIComponent(`Compartilhe o clube ${LINK.url}`)}`);
    expect(whatsapp).toHaveAttribute("target", "_blank");
    expect(whatsapp).toHaveAttribute("rel", "noopener noreferrer");
    expect(screen.getByRole("link", { name: "Facebook" })).toHaveAttribute(
      "href",
      `https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(LINK.url)}`,
    );
    expect(screen.getByRole("link", { name: "X (Twitter)" })).toHaveAttribute(
      "href",
      `https://twitter.com/intent/tweet?text=Compartilhe%20o%20clube&url=${encodeURIComponent(LINK.url)}`,
    );
    // No share sheet in this browser: no button for it, and nothing thanked yet.
    expect(screen.queryByRole("button", { name: "Compartilhar" })).not.toBeInTheDocument();
    expect(screen.queryByText("Obrigado por compartilhar.")).not.toBeInTheDocument();
  });

  it("copies the link, then thanks the member", async () => {
    const writeText = vi.fn(() => Promise.resolve());
    setNavigator("clipboard", { writeText });
    stubShare(share());
    await openShare(share());

    fireEvent.click(await screen.findByRole("button", { name: "Copiar link" }));
    expect(writeText).toHaveBeenCalledWith(LINK.url);
    const thanks = await screen.findByText("Obrigado por compartilhar.");
    expect(thanks).toHaveAttribute("role", "status");
  });

  it("thanks after a network or the browser's share sheet, not when the sheet is dismissed", async () => {
    const shareSheet = vi.fn(() => Promise.reject(new DOMException("dismissed", "AbortError")));
    setNavigator("share", shareSheet);
    stubShare(share());
    await openShare(share());

    fireEvent.click(await screen.findByRole("button", { name: "Compartilhar" }));
    expect(shareSheet).toHaveBeenCalledWith({ title: "Compartilhe o clube", url: LINK.url });
    await waitFor(() => expect(shareSheet).toHaveBeenCalledTimes(1));
    expect(screen.queryByText("Obrigado por compartilhar.")).not.toBeInTheDocument();

    fireEvent.click(screen.getByRole("link", { name: "Facebook" }));
    expect(await screen.findByText("Obrigado por compartilhar.")).toBeInTheDocument();
  });

  it("asks nothing while the share is not open, and shows the server's refusal", async () => {
    const api = stubShare(share({ availability: "ended" }));
    await openShare(share({ availability: "ended" }));
    expect(screen.queryByLabelText("Seu link de compartilhamento")).not.toBeInTheDocument();
    expect(api.callsTo(SHORT_LINK)).toHaveLength(0);
  });

  it("shows the refusal when the server has no link for it", async () => {
    stubShare(share(), { [SHORT_LINK]: () => jsonResponse({ error: "Compartilhamento não encontrado" }, 404) });
    await openShare(share());
    expect(await screen.findByText("Compartilhamento não encontrado")).toBeInTheDocument();
  });

  it("builds each network's share page", () => {
    expect(networkLinks("A & B", "https://x.example/s/AB23CD45").map((n) => n.label)).toEqual(["WhatsApp", "Facebook", "X (Twitter)"]);
  });
});

describe("a visitor's public activity page", () => {
  it.each([1, 5, 13, 19, 20])("leads type %i's action to /cadastrar, asking no short link", async (type_id) => {
    window.localStorage.clear();
    window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
    const activity = buildActivity({ type_id, click_me_label: "Quero participar", redirect_links: [{ url: "https://www.gov.br/" }] });
    const api = stubApi({ [publicActivityCall(12)]: () => jsonResponse(activity) });
    const { page } = renderApp({ path: "/atividade/12" });
    await screen.findByRole("heading", { name: activity.name, level: 1 });

    // The only one: getByRole throws on two.
    const action = screen.getByRole("link", { name: "Quero participar" });
    expect(action).toHaveAttribute("href", "/cadastrar");
    expect(screen.queryByRole("link", { name: "WhatsApp" })).not.toBeInTheDocument();
    expect(api.callsTo(SHORT_LINK)).toHaveLength(0);
    fireEvent.click(action);
    expect(page.location.pathname).toBe("/cadastrar");
  });
});

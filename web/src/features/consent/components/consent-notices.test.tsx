import { fireEvent, screen } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { ageConfirmationKey, COOKIE_CONSENT_KEY } from "@/features/consent/consent-storage";
import { leaveSite } from "@/features/consent/leave-site";
import { buildStation, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";

vi.mock("@/features/consent/leave-site", () => ({ leaveSite: vi.fn() }));

const AGE_QUESTION = "Você tem mais de 18 anos?";
const ageGateStation = buildStation({ id: 7, age_gate: true, has_majority_security: true });

function cookieNotice() {
  return screen.queryByRole("dialog", { name: "Aviso de cookies" });
}

function ageGate() {
  return screen.queryByRole("dialog", { name: AGE_QUESTION });
}

describe("cookie notice", () => {
  it("is shown until the visitor accepts, and the consent is stored", async () => {
    renderApp();

    expect(await screen.findByRole("dialog", { name: "Aviso de cookies" })).toHaveTextContent(
      "Utilizamos cookies para melhorar a sua experiência.",
    );
    expect(screen.getByRole("link", { name: "Política de Privacidade" })).toHaveAttribute(
      "href",
      "/politica-de-privacidade",
    );

    fireEvent.click(screen.getByRole("button", { name: "Aceito" }));

    expect(cookieNotice()).not.toBeInTheDocument();
    expect(window.localStorage.getItem(COOKIE_CONSENT_KEY)).not.toBeNull();
  });

  it("is not shown once the consent is stored", async () => {
    window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
    renderApp();

    await screen.findByRole("heading", { name: "Clube Filia Demo" });
    expect(cookieNotice()).not.toBeInTheDocument();
  });

  it("is shown to signed-in users too", async () => {
    signIn();
    renderApp({ path: "/homepage" });

    expect(await screen.findByRole("dialog", { name: "Aviso de cookies" })).toBeInTheDocument();
  });
});

describe("age gate", () => {
  beforeEach(() => {
    vi.mocked(leaveSite).mockClear();
  });

  it("blocks visitors of a station that asks, and cannot be dismissed", async () => {
    renderApp({ station: ageGateStation });

    const gate = await screen.findByRole("dialog", { name: AGE_QUESTION });
    expect(gate).toHaveAttribute("aria-modal", "true");
    expect(cookieNotice()).not.toBeInTheDocument();

    fireEvent.keyDown(gate, { key: "Escape" });
    fireEvent.click(gate.parentElement as HTMLElement);

    expect(ageGate()).toBeInTheDocument();
  });

  it("remembers 'Sim, quero continuar' for the station, then shows the cookie notice", async () => {
    const { unmount } = renderApp({ station: ageGateStation });

    fireEvent.click(await screen.findByRole("button", { name: "Sim, quero continuar" }));

    expect(ageGate()).not.toBeInTheDocument();
    expect(cookieNotice()).toBeInTheDocument();
    expect(window.localStorage.getItem(ageConfirmationKey(7))).not.toBeNull();

    unmount();
    renderApp({ station: ageGateStation });
    await screen.findByRole("heading", { name: "Clube Filia Demo" });
    expect(ageGate()).not.toBeInTheDocument();
  });

  it("asks again on another station", async () => {
    window.localStorage.setItem(ageConfirmationKey(7), "2026-11-21T10:00:00.000Z");
    renderApp({ station: buildStation({ id: 8, age_gate: true }) });

    expect(await screen.findByRole("dialog", { name: AGE_QUESTION })).toBeInTheDocument();
  });

  it("is not shown to signed-in users", async () => {
    signIn();
    renderApp({ path: "/homepage", station: ageGateStation });

    await screen.findByRole("heading", { name: "Início" });
    expect(ageGate()).not.toBeInTheDocument();
  });

  it("is not shown when the station does not ask", async () => {
    renderApp({ station: buildStation({ age_gate: false }) });

    await screen.findByRole("heading", { name: "Clube Filia Demo" });
    expect(ageGate()).not.toBeInTheDocument();
  });

  it("offers 'Não, sair' with majority security, which leaves the site", async () => {
    renderApp({ station: ageGateStation });

    fireEvent.click(await screen.findByRole("button", { name: "Não, sair" }));

    expect(leaveSite).toHaveBeenCalledOnce();
  });

  it("offers no way out without majority security", async () => {
    renderApp({ station: buildStation({ age_gate: true, has_majority_security: false }) });

    await screen.findByRole("dialog", { name: AGE_QUESTION });
    expect(screen.queryByRole("button", { name: "Não, sair" })).not.toBeInTheDocument();
  });
});

import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  DEEP_LINK_APP_OPEN_FALLBACK_MS,
  DEEP_LINK_DIALOG_TIMEOUT_MS,
  DEEP_LINK_STORE_REDIRECT_DELAY_MS,
} from "@/config/constants";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { assignLocation, replaceLocation } from "@/features/public-pages/browser-location";
import { buildStation, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";

vi.mock("@/features/public-pages/browser-location", () => ({ assignLocation: vi.fn(), replaceLocation: vi.fn() }));

const ANDROID =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36";
const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
const DESKTOP =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";

const IOS_STORE = "https://apps.apple.com/br/app/clube-filia-demo/id1234567890";
const ANDROID_STORE = "https://play.google.com/store/apps/details?id=br.com.filia.demo";
const appStation = buildStation({ has_app: true, domain: "filiademo", ios_link: IOS_STORE, android_link: ANDROID_STORE });
const DEEP_LINK_PATH = "/deep-link/atividades/quiz/42";
const APP_URL = "filiademo://atividades/quiz/42";

function onDevice(userAgent: string) {
  vi.spyOn(window.navigator, "userAgent", "get").mockReturnValue(userAgent);
}

function elapse(ms: number) {
  act(() => {
    vi.advanceTimersByTime(ms);
  });
}

/** What the browser does when the app takes over the screen. */
function appOpens() {
  vi.spyOn(document, "visibilityState", "get").mockReturnValue("hidden");
  act(() => {
    document.dispatchEvent(new Event("visibilitychange"));
  });
}

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  vi.mocked(assignLocation).mockClear();
  vi.mocked(replaceLocation).mockClear();
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe("deep link on an iPhone", () => {
  beforeEach(() => {
    onDevice(IPHONE);
    vi.useFakeTimers();
  });

  it("opens the app at once with a spinner, then the App Store after 2000 ms", () => {
    renderApp({ path: DEEP_LINK_PATH, station: appStation });

    expect(assignLocation).toHaveBeenCalledWith(APP_URL);
    expect(screen.getByText("Abrindo o aplicativo...").closest('[role="status"]')).not.toBeNull();
    expect(screen.getByRole("button", { name: "Abrir o app" })).toBeInTheDocument();
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();

    elapse(DEEP_LINK_STORE_REDIRECT_DELAY_MS - 1);
    expect(replaceLocation).not.toHaveBeenCalled();
    elapse(1);
    expect(replaceLocation).toHaveBeenCalledExactlyOnceWith(IOS_STORE);
  });

  it("stays out of the way once the app opened", () => {
    renderApp({ path: DEEP_LINK_PATH, station: appStation });

    appOpens();
    elapse(DEEP_LINK_STORE_REDIRECT_DELAY_MS * 2);

    expect(replaceLocation).not.toHaveBeenCalled();
  });

  it("without a store link, stops the spinner and keeps the button", () => {
    renderApp({ path: DEEP_LINK_PATH, station: { ...appStation, ios_link: null } });

    elapse(DEEP_LINK_STORE_REDIRECT_DELAY_MS);

    expect(replaceLocation).not.toHaveBeenCalled();
    expect(screen.queryByText("Abrindo o aplicativo...")).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Abrir o app" }));
    expect(assignLocation).toHaveBeenCalledTimes(2);
    expect(screen.getByText("Abrindo o aplicativo...")).toBeInTheDocument();
  });
});

describe("deep link on an Android phone", () => {
  beforeEach(() => {
    onDevice(ANDROID);
    vi.useFakeTimers();
  });

  it("asks first, and opens the Play Store when the question goes unanswered for 2000 ms", () => {
    renderApp({ path: DEEP_LINK_PATH, station: appStation });

    expect(screen.getByRole("dialog", { name: "Deseja abrir o app?" })).toBeInTheDocument();
    expect(assignLocation).not.toHaveBeenCalled();

    elapse(DEEP_LINK_DIALOG_TIMEOUT_MS - 1);
    expect(replaceLocation).not.toHaveBeenCalled();
    elapse(1);
    expect(replaceLocation).toHaveBeenCalledExactlyOnceWith(ANDROID_STORE);
  });

  it("opens the app on 'Abrir o app' and falls back to the store if it did not open within 1500 ms", () => {
    renderApp({ path: DEEP_LINK_PATH, station: appStation });
    elapse(DEEP_LINK_DIALOG_TIMEOUT_MS - 500);

    const dialog = screen.getByRole("dialog", { name: "Deseja abrir o app?" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Abrir o app" }));

    expect(assignLocation).toHaveBeenCalledExactlyOnceWith(APP_URL);
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(screen.getByText("Abrindo o aplicativo...")).toBeInTheDocument();
    elapse(DEEP_LINK_APP_OPEN_FALLBACK_MS - 1);
    expect(replaceLocation).not.toHaveBeenCalled();
    elapse(1);
    expect(replaceLocation).toHaveBeenCalledExactlyOnceWith(ANDROID_STORE);
  });

  it("does not send to the store when the app opened", () => {
    renderApp({ path: DEEP_LINK_PATH, station: appStation });
    fireEvent.click(screen.getByRole("button", { name: "Abrir o app" }));

    appOpens();
    elapse(DEEP_LINK_APP_OPEN_FALLBACK_MS * 2);

    expect(replaceLocation).not.toHaveBeenCalled();
  });

  it("leaves the person on the page after 'Agora não'", () => {
    renderApp({ path: DEEP_LINK_PATH, station: appStation });

    fireEvent.click(screen.getByRole("button", { name: "Agora não" }));
    elapse(DEEP_LINK_DIALOG_TIMEOUT_MS * 2);

    expect(replaceLocation).not.toHaveBeenCalled();
    expect(assignLocation).not.toHaveBeenCalled();
    expect(screen.getByRole("button", { name: "Abrir o app" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Baixar o aplicativo" })).toHaveAttribute("href", ANDROID_STORE);
  });
});

describe("deep link elsewhere", () => {
  it("sends a desktop browser to the activity's web page", async () => {
    onDevice(DESKTOP);
    signIn();
    const { page } = renderApp({ path: DEEP_LINK_PATH, station: appStation });

    await waitFor(() => expect(page.location.pathname).toBe("/homepage/atividades/42"));
    expect(assignLocation).not.toHaveBeenCalled();
  });

  it("sends a phone to the web page when the station has no app", async () => {
    onDevice(IPHONE);
    signIn();
    const { page } = renderApp({ path: DEEP_LINK_PATH, station: { ...appStation, has_app: false } });

    await waitFor(() => expect(page.location.pathname).toBe("/homepage/atividades/42"));
    expect(assignLocation).not.toHaveBeenCalled();
  });
});

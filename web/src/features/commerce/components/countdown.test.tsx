import { act, render, renderHook, screen } from "@testing-library/react";
import { StrictMode, useState } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Countdown, lastMinuteAnnouncement } from "@/features/commerce/components/countdown";
import { formatMinutesSeconds, useExpiryCountdown } from "@/features/commerce/use-expiry-countdown";

const NOW = new Date("2026-11-24T12:00:00.000Z");
const inSeconds = (seconds: number) => new Date(NOW.getTime() + seconds * 1000).toISOString();

async function elapse(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(NOW);
});

afterEach(() => {
  vi.useRealTimers();
});

describe("formatMinutesSeconds", () => {
  it.each([
    [0, "00:00"],
    [9, "00:09"],
    [61, "01:01"],
    [900, "15:00"],
    [3725, "62:05"],
  ])("shows %i seconds as %s", (seconds, text) => {
    expect(formatMinutesSeconds(seconds)).toBe(text);
  });
});

describe("useExpiryCountdown", () => {
  it("counts down to the server's instant, one tick a second", async () => {
    const { result } = renderHook(() => useExpiryCountdown(inSeconds(3)));
    expect(result.current).toEqual({ secondsLeft: 3, expired: false });

    await elapse(1000);
    expect(result.current.secondsLeft).toBe(2);
    await elapse(1000);
    expect(result.current.secondsLeft).toBe(1);
    await elapse(1000);
    expect(result.current).toEqual({ secondsLeft: 0, expired: true });
  });

  it("counts from the instant, not from when it mounted", () => {
    // The answer took 4 s to arrive: 10 s after the server's clock, 6 s are left.
    vi.setSystemTime(new Date(NOW.getTime() + 4000));
    const { result } = renderHook(() => useExpiryCountdown(inSeconds(10)));
    expect(result.current.secondsLeft).toBe(6);
  });

  it("ticks on the deadline's second boundaries, rounding up", async () => {
    const { result } = renderHook(() => useExpiryCountdown(new Date(NOW.getTime() + 2500).toISOString()));
    expect(result.current.secondsLeft).toBe(3);
    await elapse(499);
    expect(result.current.secondsLeft).toBe(3);
    await elapse(1);
    expect(result.current.secondsLeft).toBe(2);
  });

  it("calls back once at zero, not before, and not again on re-renders", async () => {
    const onExpire = vi.fn();
    const { rerender } = renderHook(({ callback }) => useExpiryCountdown(inSeconds(2), callback), {
      initialProps: { callback: onExpire },
    });

    await elapse(1999);
    expect(onExpire).not.toHaveBeenCalled();
    await elapse(1);
    expect(onExpire).toHaveBeenCalledTimes(1);

    rerender({ callback: onExpire });
    await elapse(5000);
    expect(onExpire).toHaveBeenCalledTimes(1);
  });

  it("keeps its deadline when re-rendered with a new callback, and calls the latest", async () => {
    const first = vi.fn();
    const latest = vi.fn();
    const { result, rerender } = renderHook(({ callback }) => useExpiryCountdown(inSeconds(3), callback), {
      initialProps: { callback: first },
    });

    await elapse(1000);
    rerender({ callback: latest });
    expect(result.current.secondsLeft).toBe(2);
    await elapse(2000);
    expect(first).not.toHaveBeenCalled();
    expect(latest).toHaveBeenCalledTimes(1);
  });

  it("calls back at once for an instant already past", () => {
    const onExpire = vi.fn();
    const { result } = renderHook(() => useExpiryCountdown(inSeconds(-5), onExpire));
    expect(onExpire).toHaveBeenCalledTimes(1);
    expect(result.current).toEqual({ secondsLeft: 0, expired: true });
  });

  it("calls back once under StrictMode's doubled effects", async () => {
    const onExpire = vi.fn();
    renderHook(() => useExpiryCountdown(inSeconds(-1), onExpire), { wrapper: StrictMode });
    await elapse(2000);
    expect(onExpire).toHaveBeenCalledTimes(1);
  });

  it("starts over when the server moves the instant later", async () => {
    const onExpire = vi.fn();
    const { result, rerender } = renderHook(({ expiresAt }) => useExpiryCountdown(expiresAt, onExpire), {
      initialProps: { expiresAt: inSeconds(2) },
    });
    await elapse(2000);
    expect(onExpire).toHaveBeenCalledTimes(1);

    rerender({ expiresAt: inSeconds(600) });
    expect(result.current.secondsLeft).toBe(598);
    expect(result.current.expired).toBe(false);
    await elapse(598_000);
    expect(onExpire).toHaveBeenCalledTimes(2);
  });

  it("waits without an instant", async () => {
    const onExpire = vi.fn();
    const { result } = renderHook(() => useExpiryCountdown(null, onExpire));
    await elapse(5000);
    expect(result.current).toEqual({ secondsLeft: null, expired: false });
    expect(onExpire).not.toHaveBeenCalled();
  });
});

describe("lastMinuteAnnouncement", () => {
  it("speaks only in the last minute, at 60, 30 and 10 seconds", () => {
    expect(lastMinuteAnnouncement(61)).toBe("");
    expect(lastMinuteAnnouncement(60)).toBe("Resta 1 minuto.");
    expect(lastMinuteAnnouncement(31)).toBe("Resta 1 minuto.");
    expect(lastMinuteAnnouncement(30)).toBe("Restam 30 segundos.");
    expect(lastMinuteAnnouncement(10)).toBe("Restam 10 segundos.");
    expect(lastMinuteAnnouncement(0)).toBe("");
  });
});

describe("Countdown", () => {
  it("shows mm:ss under its label, ticking every second", async () => {
    render(<Countdown expiresAt={inSeconds(15 * 60)} label="Sua reserva expira em" />);

    const timer = screen.getByRole("timer", { name: "Sua reserva expira em" });
    expect(timer).toHaveTextContent("15:00");
    await elapse(1000);
    expect(timer).toHaveTextContent("14:59");
  });

  it("announces the last minute in a live region, not every second", async () => {
    render(<Countdown expiresAt={inSeconds(62)} />);
    const status = screen.getByRole("status");
    expect(status).toBeEmptyDOMElement();

    await elapse(2000);
    expect(screen.getByRole("timer", { name: "Tempo restante" })).toHaveTextContent("01:00");
    expect(status).toHaveTextContent("Resta 1 minuto.");
    await elapse(1000);
    expect(status).toHaveTextContent("Resta 1 minuto.");
    await elapse(29_000);
    expect(status).toHaveTextContent("Restam 30 segundos.");
  });

  it("calls back once at zero while its parent re-renders every second", async () => {
    const onExpire = vi.fn();
    function Parent() {
      const [renders, setRenders] = useState(0);
      return (
        <>
          <button type="button" onClick={() => setRenders(renders + 1)}>
            {renders}
          </button>
          <Countdown expiresAt={inSeconds(3)} onExpire={() => {
            onExpire();
          }} />
        </>
      );
    }
    render(<Parent />);
    for (let second = 0; second < 5; second += 1) {
      act(() => {
        screen.getByRole("button").click();
      });
      await elapse(1000);
    }
    expect(onExpire).toHaveBeenCalledTimes(1);
    expect(screen.getByRole("timer")).toHaveTextContent("00:00");
  });
});

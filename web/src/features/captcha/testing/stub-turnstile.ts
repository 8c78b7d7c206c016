import { act, waitFor } from "@testing-library/react";
import { expect, vi } from "vitest";
import type { TurnstileRenderOptions } from "@/features/captcha/api/load-turnstile";
import type { StationConfig } from "@/types/api";

/** A turnstile config for `stubApi`. */
export const TURNSTILE_CONFIG: StationConfig = { station_id: 7, captcha: { provider: "turnstile", site_key: "site-key" }, payments_sandbox: false, card_tokenizer: null, test_environment: false };

/** Puts a fake Turnstile on window; every rendered widget is kept, the newest last. */
export function stubTurnstile() {
  const widgets: TurnstileRenderOptions[] = [];
  const render = vi.fn((_container: HTMLElement, options: TurnstileRenderOptions) => {
    widgets.push(options);
    return `w${widgets.length}`;
  });
  const remove = vi.fn();
  window.turnstile = { render, remove };
  return {
    widgets,
    render,
    remove,
    /** Waits for the `count`th widget and solves it with `token`. */
    solve: async (token: string, count = widgets.length || 1) => {
      await waitFor(() => expect(widgets).toHaveLength(count));
      act(() => widgets[count - 1]?.callback(token));
    },
  };
}

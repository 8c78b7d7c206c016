import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { TURNSTILE_SCRIPT_URL, type TurnstileRenderOptions } from "@/features/captcha/api/load-turnstile";
import { CAPTCHA_OFF_VALUE, CaptchaWidget } from "@/features/captcha/components/captcha-widget";
import { createQueryClient } from "@/lib/query-client";
import { jsonResponse } from "@/testing/fixtures";
import type { StationConfig } from "@/types/api";

function renderCaptcha(config: StationConfig) {
  vi.stubGlobal("fetch", vi.fn(() => Promise.resolve(jsonResponse(config))));
  const onChange = vi.fn();
  const { container } = render(
    <QueryClientProvider client={createQueryClient(() => undefined)}>
      <CaptchaWidget onChange={onChange} />
    </QueryClientProvider>,
  );
  return { onChange, container };
}

afterEach(() => {
  delete window.turnstile;
  document.head.querySelectorAll("script").forEach((script) => script.remove());
});

describe("CaptchaWidget", () => {
  it("shows nothing and yields 'off' when the deployment has no captcha", async () => {
    const { onChange, container } = renderCaptcha({ station_id: 7, captcha: { provider: "off", site_key: null }, payments_sandbox: false, card_tokenizer: null, test_environment: false });

    await waitFor(() => expect(onChange).toHaveBeenCalledWith(CAPTCHA_OFF_VALUE));
    expect(container).toBeEmptyDOMElement();
    expect(document.head.querySelector("script")).toBeNull();
  });

  it("renders Turnstile with the site key and yields its token, then '' once it expires", async () => {
    let options: TurnstileRenderOptions | undefined;
    const render = vi.fn((_container: HTMLElement, given: TurnstileRenderOptions) => {
      options = given;
      return "widget-1";
    });
    const remove = vi.fn();
    const { onChange } = renderCaptcha({ station_id: 7, captcha: { provider: "turnstile", site_key: "0x4AAA-site" }, payments_sandbox: false, card_tokenizer: null, test_environment: false });

    const script = await waitFor(() => {
      const found = document.head.querySelector<HTMLScriptElement>("script");
      expect(found).not.toBeNull();
      return found as HTMLScriptElement;
    });
    expect(script.src).toBe(TURNSTILE_SCRIPT_URL);
    expect(screen.getByRole("group", { name: "Verificação de segurança" })).toBeInTheDocument();

    window.turnstile = { render, remove };
    script.dispatchEvent(new Event("load"));

    await waitFor(() => expect(render).toHaveBeenCalledTimes(1));
    expect(options?.sitekey).toBe("0x4AAA-site");
    options?.callback("token-abc");
    expect(onChange).toHaveBeenLastCalledWith("token-abc");
    options?.["expired-callback"]();
    expect(onChange).toHaveBeenLastCalledWith("");
    expect(onChange).not.toHaveBeenCalledWith(CAPTCHA_OFF_VALUE);
  });

  it("says it cannot load when Turnstile has no site key (forms could never be sent)", async () => {
    const { onChange } = renderCaptcha({ station_id: 7, captcha: { provider: "turnstile", site_key: null }, payments_sandbox: false, card_tokenizer: null, test_environment: false });

    expect(await screen.findByRole("alert")).toHaveTextContent(
      "Não foi possível carregar a verificação de segurança. Recarregue a página.",
    );
    expect(onChange).not.toHaveBeenCalled();
    expect(document.head.querySelector("script")).toBeNull();
  });
});

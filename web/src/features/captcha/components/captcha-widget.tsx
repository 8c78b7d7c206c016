import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { loadTurnstile } from "@/features/captcha/api/load-turnstile";
import { stationConfigQueryOptions } from "@/features/stations";

/** The value a form sends when the deployment has no captcha (the server does not check it). */
export const CAPTCHA_OFF_VALUE = "off";

interface CaptchaWidgetProps {
  /** The token to send, or "" while there is none (not solved yet, expired, failed). */
  onChange: (token: string) => void;
  /** The form's message for a missing token. */
  error?: string;
}

function CaptchaLoadError() {
  return (
    <p className="field__error" role="alert">
      Não foi possível carregar a verificação de segurança. Recarregue a página.
    </p>
  );
}

/**
 * A token works once and the server spends it on every submit, so after a failed submit the
 * form calls `reset`: it clears the form's value and gives the widget a new `key` (a fresh one).
 */
export function useCaptchaReset(clear: () => void) {
  const [key, setKey] = useState(0);
  const reset = () => {
    clear();
    setKey((current) => current + 1);
  };
  return { key, reset };
}

/** The latest `onChange`, so a parent's new function each render does not redo the effects. */
function useLatest<T>(value: T) {
  const ref = useRef(value);
  useEffect(() => {
    ref.current = value;
  });
  return ref;
}

function TurnstileWidget({ siteKey, onChange }: { siteKey: string; onChange: (token: string) => void }) {
  const containerRef = useRef<HTMLDivElement>(null);
  const onChangeRef = useLatest(onChange);
  const [loadFailed, setLoadFailed] = useState(false);

  useEffect(() => {
    let widgetId: string | undefined;
    let cancelled = false;
    loadTurnstile().then(
      (turnstile) => {
        if (cancelled || !containerRef.current) return;
        widgetId = turnstile.render(containerRef.current, {
          sitekey: siteKey,
          language: "pt-br",
          callback: (token) => onChangeRef.current(token),
          "expired-callback": () => onChangeRef.current(""),
          "error-callback": () => onChangeRef.current(""),
        });
      },
      () => {
        if (!cancelled) setLoadFailed(true);
      },
    );
    return () => {
      cancelled = true;
      if (widgetId !== undefined) window.turnstile?.remove(widgetId);
    };
  }, [siteKey, onChangeRef]);

  return (
    <>
      <div ref={containerRef} className="captcha__widget" />
      {loadFailed && <CaptchaLoadError />}
    </>
  );
}

/**
 * The human verification of public forms, as this deployment configures it: nothing at all
 * when it is off (the value is then "off"), else Cloudflare Turnstile with its token.
 */
export function CaptchaWidget({ onChange, error }: CaptchaWidgetProps) {
  const config = useQuery(stationConfigQueryOptions());
  const captcha = config.data?.captcha;
  const isOff = captcha?.provider === "off";
  const onChangeRef = useLatest(onChange);

  useEffect(() => {
    if (isOff) onChangeRef.current(CAPTCHA_OFF_VALUE);
  }, [isOff, onChangeRef]);

  // The station provider has the config already; only a page without it waits here.
  if (config.isPending) return <p className="field__hint">Carregando a verificação de segurança...</p>;
  if (!captcha) return <CaptchaLoadError />;
  if (isOff) return null;
  // Turnstile without a site key cannot render: say so rather than leave forms unsendable.
  if (!captcha.site_key) return <CaptchaLoadError />;
  return (
    <div className="captcha" role="group" aria-label="Verificação de segurança">
      <TurnstileWidget siteKey={captcha.site_key} onChange={onChange} />
      {error && <p className="captcha__error field__error">{error}</p>}
    </div>
  );
}

import { useCallback, useEffect, useRef, useState } from "react";
import { Navigate, useParams } from "react-router";
import { MessagePage } from "@/components/message-page";
import { ConfirmDialog } from "@/components/confirm-dialog";
import {
  DEEP_LINK_APP_OPEN_FALLBACK_MS,
  DEEP_LINK_DIALOG_TIMEOUT_MS,
  DEEP_LINK_STORE_REDIRECT_DELAY_MS,
} from "@/config/constants";
import { assignLocation, replaceLocation } from "@/features/public-pages/browser-location";
import {
  appUrl,
  detectPlatform,
  stationHasApp,
  storeLink,
  webActivityPath,
  type DeepLinkTarget,
} from "@/features/public-pages/deep-link";
import { useStation } from "@/features/stations";
import "@/components/loading-page.css";
import "./public-pages.css";

type Phase = "asking" | "opening" | "idle";

interface AppOpenerProps {
  platform: "android" | "ios";
  appAddress: string;
  storeAddress: string | null;
}

/**
 * Opens the app, then the store if the page is still showing when the wait is over (an app
 * that opened hides the page). iOS opens the app at once; Android first asks, because its
 * browsers only follow an app scheme after a tap.
 */
function AppOpener({ platform, appAddress, storeAddress }: AppOpenerProps) {
  const [phase, setPhase] = useState<Phase>(platform === "android" ? "asking" : "opening");
  const timer = useRef<number | undefined>(undefined);

  const schedule = useCallback((action: () => void, delayMs: number) => {
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(action, delayMs);
  }, []);

  const goToStore = useCallback(() => {
    if (document.visibilityState === "hidden") return;
    if (storeAddress !== null) replaceLocation(storeAddress);
    else setPhase("idle");
  }, [storeAddress]);

  const launchApp = useCallback(() => {
    assignLocation(appAddress);
    schedule(goToStore, platform === "android" ? DEEP_LINK_APP_OPEN_FALLBACK_MS : DEEP_LINK_STORE_REDIRECT_DELAY_MS);
  }, [appAddress, goToStore, platform, schedule]);

  const openApp = () => {
    setPhase("opening");
    launchApp();
  };

  const decline = () => {
    window.clearTimeout(timer.current);
    setPhase("idle");
  };

  useEffect(() => {
    // iOS starts in the "opening" phase already.
    if (platform === "android") schedule(goToStore, DEEP_LINK_DIALOG_TIMEOUT_MS);
    else launchApp();
    return () => window.clearTimeout(timer.current);
  }, [goToStore, launchApp, platform, schedule]);

  useEffect(() => {
    // The app opened: it must not be pushed aside by the store when the person comes back.
    const onVisibilityChange = () => {
      if (document.visibilityState === "hidden") window.clearTimeout(timer.current);
    };
    document.addEventListener("visibilitychange", onVisibilityChange);
    return () => document.removeEventListener("visibilitychange", onVisibilityChange);
  }, []);

  return (
    <MessagePage title="Abrir o aplicativo">
      <div className="deep-link__status">
        {phase === "opening" ? (
          <div className="deep-link__status" role="status">
            <span className="loading-page__spinner" aria-hidden="true" />
            <p>Abrindo o aplicativo...</p>
          </div>
        ) : (
          <p>Para ver esta atividade, abra o aplicativo.</p>
        )}
        {phase !== "asking" && (
          <button type="button" className="button button--primary" onClick={openApp}>
            Abrir o app
          </button>
        )}
        {phase === "idle" && storeAddress !== null && (
          <a className="button button--secondary" href={storeAddress}>
            Baixar o aplicativo
          </a>
        )}
      </div>
      {phase === "asking" && (
        <ConfirmDialog
          title="Deseja abrir o app?"
          confirmLabel="Abrir o app"
          onConfirm={openApp}
          cancelLabel="Agora não"
          onCancel={decline}
        />
      )}
    </MessagePage>
  );
}

/** /deep-link/{resource}/{type}/{actionId}: the activity in the station's app on phones, on the web elsewhere. */
export function DeepLinkPage() {
  const { resource = "", type = "", actionId = "" } = useParams();
  const station = useStation();
  const [platform] = useState(() => detectPlatform(navigator.userAgent, navigator.maxTouchPoints));

  if (platform === "desktop" || !stationHasApp(station)) return <Navigate to={webActivityPath(actionId)} replace />;
  const target: DeepLinkTarget = { resource, type, actionId };
  return (
    <AppOpener
      platform={platform}
      appAddress={appUrl(station.domain ?? "", target)}
      storeAddress={storeLink(station, platform)}
    />
  );
}

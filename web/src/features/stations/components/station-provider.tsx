import { useLayoutEffect, type ReactNode } from "react";
import { LoadingPage } from "@/components/loading-page";
import { applyStationBranding } from "@/features/stations/branding";
import { useCurrentStation } from "@/features/stations/api/use-current-station";
import { StationLoadError } from "@/features/stations/components/station-load-error";
import { StationContext } from "@/features/stations/station-context";
import type { Station } from "@/types/api";

function BrandedStation({ station, children }: { station: Station; children: ReactNode }) {
  // Before paint, so the first frame already wears the station's colours.
  useLayoutEffect(() => applyStationBranding(station), [station]);
  return <StationContext value={station}>{children}</StationContext>;
}

/** Loads this host's station, applies its branding and makes it available to useStation(). */
export function StationProvider({ children }: { children: ReactNode }) {
  const current = useCurrentStation();
  if (current.status === "loading") return <LoadingPage />;
  if (current.status === "error") return <StationLoadError onRetry={current.retry} />;
  return <BrandedStation station={current.station}>{children}</BrandedStation>;
}

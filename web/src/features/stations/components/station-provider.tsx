import { useQuery } from "@tanstack/react-query";
import { useLayoutEffect, type ReactNode } from "react";
import { LoadingPage } from "@/components/loading-page";
import { stationConfigQueryOptions } from "@/features/stations/api/get-station-config";
import { applyStationBranding } from "@/features/stations/branding";
import { useCurrentStation } from "@/features/stations/api/use-current-station";
import { StationLoadError } from "@/features/stations/components/station-load-error";
import { TestEnvironmentBanner } from "@/features/stations/components/test-environment-banner";
import { StationContext } from "@/features/stations/station-context";
import type { Station } from "@/types/api";

function BrandedStation({ station, children }: { station: Station; children: ReactNode }) {
  // Before paint, so the first frame already wears the station's colours.
  useLayoutEffect(() => applyStationBranding(station), [station]);
  // Already loaded: the station was found through it.
  const testEnvironment = useQuery(stationConfigQueryOptions()).data?.test_environment === true;
  return (
    <StationContext value={station}>
      {testEnvironment && <TestEnvironmentBanner />}
      {children}
    </StationContext>
  );
}

/**
 * Loads this host's station, applies its branding and makes it available to useStation();
 * above every page, the test environment's banner when payments are simulated.
 */
export function StationProvider({ children }: { children: ReactNode }) {
  const current = useCurrentStation();
  if (current.status === "loading") return <LoadingPage />;
  if (current.status === "error") return <StationLoadError onRetry={current.retry} />;
  return <BrandedStation station={current.station}>{children}</BrandedStation>;
}

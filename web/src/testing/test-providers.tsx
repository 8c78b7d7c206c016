import type { ReactNode } from "react";
import { QueryProvider } from "@/app/query-provider";
import { ToastProvider } from "@/components/toasts/toast-provider";
import { StationContext } from "@/features/stations";
import type { Station } from "@/types/api";

/** The app's providers around `children`, for an already loaded station. */
export function TestProviders({ station, children }: { station: Station; children: ReactNode }) {
  return (
    <ToastProvider>
      <QueryProvider>
        <StationContext value={station}>{children}</StationContext>
      </QueryProvider>
    </ToastProvider>
  );
}

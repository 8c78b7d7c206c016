import type { ReactNode } from "react";
import { QueryProvider } from "@/app/query-provider";
import { ToastProvider } from "@/components/toasts/toast-provider";
import { StationProvider } from "@/features/stations";

/** Everything the routes rely on: feedback messages, react-query and the branded station. */
export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <ToastProvider>
      <QueryProvider>
        <StationProvider>{children}</StationProvider>
      </QueryProvider>
    </ToastProvider>
  );
}

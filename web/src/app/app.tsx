import { BrowserRouter, useRoutes } from "react-router";
import { appRoutes } from "@/app/app-routes";
import { AppProvider } from "@/app/provider";
import { AppCrashPage, ErrorBoundary } from "@/components/error-boundary";

// react-router's declarative mode: the app loads no data through the router (screens fetch
// with react-query), and the data router would add 17 kB to every first page load.
// Navigations render at once rather than as transitions, in the same render as the state
// changed with them (a lazy screen shows the loading page until its code arrives).
function AppRoutes() {
  return useRoutes(appRoutes);
}

export function App() {
  return (
    <AppProvider>
      <BrowserRouter useTransitions={false}>
        <ErrorBoundary fallback={<AppCrashPage />}>
          <AppRoutes />
        </ErrorBoundary>
      </BrowserRouter>
    </AppProvider>
  );
}

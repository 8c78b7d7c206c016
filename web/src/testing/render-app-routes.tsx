import { useLayoutEffect } from "react";
import { MemoryRouter, useLocation, useNavigate, useRoutes, type Location, type NavigateFunction } from "react-router";
import { appRoutes } from "@/app/app-routes";

/** Where the rendered app is, and its way to go elsewhere. */
export interface RouterView {
  location: Location;
  navigate: NavigateFunction;
}

/** The app's routes as App renders them, in memory, reporting every location they show. */
export function AppRoutesAt({ path, onView }: { path: string; onView: (view: RouterView) => void }) {
  return (
    <MemoryRouter initialEntries={[path]} useTransitions={false}>
      <RouterSpy onView={onView} />
      <Routes />
    </MemoryRouter>
  );
}

function Routes() {
  return useRoutes(appRoutes);
}

function RouterSpy({ onView }: { onView: (view: RouterView) => void }) {
  const location = useLocation();
  const navigate = useNavigate();
  useLayoutEffect(() => {
    onView({ location, navigate });
  }, [location, navigate, onView]);
  return null;
}

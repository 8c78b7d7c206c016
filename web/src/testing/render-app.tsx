import { render } from "@testing-library/react";
import type { Location, NavigateOptions, To } from "react-router";
import { preloadScreens } from "@/components/lazy-screen";
import { buildStation } from "@/testing/fixtures";
import { AppRoutesAt, type RouterView } from "@/testing/render-app-routes";
import { TestProviders } from "@/testing/test-providers";
import type { Station } from "@/types/api";

// Screens render at once in the tests that render the app; the lazy loading itself is tested
// on its own (app/lazy-routes.test.tsx).
await preloadScreens();

/** What a test reads of the rendered app besides the screen, and how it moves the app. */
export interface AppPage {
  readonly location: Location;
  navigate(to: To, options?: NavigateOptions): Promise<void>;
}

/** Renders the app's routes at `path` for an already loaded station, without any fetch. */
export function renderApp({ path = "/", station = buildStation() }: { path?: string; station?: Station } = {}) {
  let current: RouterView | undefined;
  const view = () => {
    if (!current) throw new Error("the app has not rendered a location yet");
    return current;
  };
  const page: AppPage = {
    get location() {
      return view().location;
    },
    navigate: async (to, options) => {
      await view().navigate(to, options);
    },
  };
  const result = render(
    <TestProviders station={station}>
      <AppRoutesAt path={path} onView={(next) => (current = next)} />
    </TestProviders>,
  );
  return { ...result, page };
}

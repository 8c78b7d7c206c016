// Screens are split per route: each one's code is fetched when it is first shown, so the
// first page load carries only the app's frame (see scripts/check-bundle-size.js).
import { lazy, Suspense, type ComponentType, type ReactElement } from "react";
import { LoadingPage } from "@/components/loading-page";

const preloads: (() => Promise<unknown>)[] = [];

/**
 * The route element of a screen loaded on first use, with the loading page meanwhile. A screen
 * already loaded renders at once: React's `lazy` reads a thenable that resolves synchronously
 * without suspending, so a later visit never flashes the loading page.
 */
export function lazyScreen(load: () => Promise<ComponentType>): ReactElement {
  let loaded: ComponentType | undefined;
  const preload = async () => {
    loaded ??= await load();
    return loaded;
  };
  preloads.push(preload);
  const Screen = lazy(() => {
    const ready = loaded;
    if (!ready) return preload().then((component) => ({ default: component }));
    // `lazy` is typed for a Promise but only calls `then` (React's lazyInitializer).
    const settled = { then: (resolve: (module: { default: ComponentType }) => void) => resolve({ default: ready }) };
    return settled as unknown as Promise<{ default: ComponentType }>;
  });
  return (
    <Suspense fallback={<LoadingPage />}>
      <Screen />
    </Suspense>
  );
}

/**
 * Loads every lazy screen now (tests render the app without waiting on each import),
 * including those an area's own route table declares once its code is loaded.
 */
export async function preloadScreens(): Promise<void> {
  let loaded = 0;
  while (loaded < preloads.length) {
    const pending = preloads.slice(loaded);
    loaded = preloads.length;
    await Promise.all(pending.map((preload) => preload()));
  }
}

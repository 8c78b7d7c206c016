// Leaving the web app for another address (an app scheme, a store, a shared link). Kept in
// one module so tests can replace it: jsdom cannot navigate.

/** Opens `url` as a new history entry (the app scheme: back returns here if nothing opens). */
export function assignLocation(url: string): void {
  window.location.assign(url);
}

/** Opens `url` in place of this page, so back does not come here again. */
export function replaceLocation(url: string): void {
  window.location.replace(url);
}

/**
 * Leaves the single-page app for `url` with a full page load: after a login the whole app
 * starts again with the new session, and an external app host is another site.
 */
export function loadPage(url: string): void {
  window.location.assign(url);
}

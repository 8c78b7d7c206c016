/** Leaves the site for an empty page, without keeping this one in the history. */
export function leaveSite(): void {
  window.location.replace("about:blank");
}

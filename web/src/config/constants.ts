// Business constants of spec 000 section 9 that the web app uses.

/** Toasts last 4000 ms. */
export const TOAST_DURATION_MS = 4000;

/** Snackbars last 2000 ms. */
export const SNACKBAR_DURATION_MS = 2000;

// Business constants of spec 000 section 9 that the web app uses.

/** Toasts last 4000 ms. */
export const TOAST_DURATION_MS = 4000;

/** Snackbars last 2000 ms. */
export const SNACKBAR_DURATION_MS = 2000;

/** Deep links: the store opens 2000 ms after the app was asked to open. */
export const DEEP_LINK_STORE_REDIRECT_DELAY_MS = 2000;

/** Deep links on Android: the store opens if the app did not within 1500 ms of the answer. */
export const DEEP_LINK_APP_OPEN_FALLBACK_MS = 1500;

/** Deep links on Android: an unanswered "Deseja abrir o app?" gives way to the store after 2000 ms. */
export const DEEP_LINK_DIALOG_TIMEOUT_MS = 2000;

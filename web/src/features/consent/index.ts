// The consent feature's public surface: the app and other features import only this (eslint.config.js).
export { ConsentNotices } from "./components/consent-notices";
export { COOKIE_CONSENT_KEY } from "./consent-storage";

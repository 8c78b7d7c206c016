// The captcha feature's public surface: the app and other features import only this (eslint.config.js).
export type { TurnstileRenderOptions } from "./api/load-turnstile";
export { CaptchaWidget, useCaptchaReset } from "./components/captcha-widget";

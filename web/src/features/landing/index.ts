// The landing feature's public surface: the app and other features import only this (eslint.config.js).
export { LandingPage } from "./components/landing-page";

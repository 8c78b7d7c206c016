// The support feature's public surface: the app and other features import only this (eslint.config.js).
export { supportMemberRoutes } from "./member-routes";
export { SupportForm } from "./components/lazy-support-form";

// The accounts feature's public surface: the app and other features import only this (eslint.config.js).
export { accountRoutes } from "./routes";
export { signupRoutes } from "./signup/routes";

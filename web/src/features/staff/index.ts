// The staff feature's public surface: the app and other features import only this (eslint.config.js).
export { opsRoutes } from "./routes";

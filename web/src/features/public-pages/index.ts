// The public-pages feature's public surface: the app and other features import only this (eslint.config.js).
export { publicPageRoutes } from "./routes";

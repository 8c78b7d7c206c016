// The payment methods feature's public surface: the app and other features import only this (eslint.config.js).
export { paymentMethodsMemberRoutes } from "./routes";

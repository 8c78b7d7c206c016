// The signup feature's public surface: the app and other features import only this (eslint.config.js).
export { chooseConfirmationMethod } from "./api/confirmation-method";
export type { AffiliateInfo, SignUpLocationState } from "./api/types";
export { signupRoutes } from "./routes";

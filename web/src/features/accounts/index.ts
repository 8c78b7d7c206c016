// The accounts feature's public surface: the app and other features import only this (eslint.config.js).
// The member area's profile and member card routes (the area's own chunk loads them).
export { accountsMemberRoutes } from "./member-routes";

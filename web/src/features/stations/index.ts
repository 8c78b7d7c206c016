// The stations feature's public surface: the app and other features import only this (eslint.config.js).
export { stationConfigQueryOptions } from "./api/get-station-config";
export { StationLoadError } from "./components/station-load-error";
export { StationLogo } from "./components/station-logo";
export { StationProvider } from "./components/station-provider";
export { StationContext, useStation } from "./station-context";
export { stationQueryOptions } from "./api/get-station";

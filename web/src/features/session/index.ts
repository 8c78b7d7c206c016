// The session feature's public surface: the app and other features import only this (eslint.config.js).
export { revokeSession } from "./api/logout";
export { NoEstablishmentMessage } from "./components/no-establishment-message";
export { RequireMember } from "./components/require-member";
export { SessionWatch } from "./components/session-watch";
export { decideRootGate } from "./root-gate";
export { useEndSession } from "./use-end-session";
export { useSession } from "./use-session";

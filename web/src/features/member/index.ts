// The member feature's public surface: the app and other features import only this (eslint.config.js).
export { MemberLayout } from "./components/member-layout";
export { MemberWelcome } from "./components/member-welcome";

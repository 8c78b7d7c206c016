// The invitations feature's public surface: the app and other features import only this (eslint.config.js).
export { InviteBody } from "./components/invite-body";

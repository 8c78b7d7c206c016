// The member feature's public surface: the app and other features import only this (eslint.config.js).
// The menu's entries by station flags, which the profile page lists as its links.
export { memberMenu, PROFILE_LINK, type MemberMenu, type MenuLink } from "./components/member-menu";

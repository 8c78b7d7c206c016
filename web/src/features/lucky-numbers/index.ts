// The lucky-numbers feature's public surface: the app and other features import only this (eslint.config.js).
export { useLuckyNumbers } from "./api/get-lucky-numbers";

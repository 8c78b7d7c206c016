// The wallet feature's public surface: the app and other features import only this (eslint.config.js).
export { HeaderBalance, STATEMENT_PATH } from "./components/header-balance";
export { invalidateWallet } from "./invalidate-wallet";
export { useWalletBalance } from "./api/get-balance";

// The subscriptions feature's public surface: the app and other features import only this (eslint.config.js).
export { ProductSubscriptionBody } from "./components/product-subscription-body";

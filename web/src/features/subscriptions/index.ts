// The subscriptions feature's public surface: the app and other features import only this (eslint.config.js).
export { subscriptionsMemberRoutes } from "./member-routes";
export { ProductSubscriptionBody } from "./components/lazy-product-subscription-body";
export { SavedCardForm } from "./components/lazy-new-card-form";
export { savedCardsKey, useSavedCards } from "./api/cards";
export { LandingPlans } from "./components/landing-plans";

// The activities feature's public surface: the app and other features import only this (eslint.config.js).
export { activitiesMemberRoutes } from "./member-routes";
export { PublicFeaturedCarousel } from "./components/public-featured-carousel";
// A category's carousel, on a desk's landing (spec 002 "Legal consultancy").
export { CategoryCarousel } from "./components/category-carousel";
// The home's shortcut tiles a station shows (the menu walk follows them too).
export { homeShortcuts } from "./components/home-extras";

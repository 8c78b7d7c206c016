// The address feature's public surface: the app and other features import only this (eslint.config.js).
export { isCompleteCep, notCepMark, useCepLookup } from "./api/lookup-cep";
export type { CepAddress } from "./api/lookup-cep";
export { CepField, type CepFillValues } from "./components/cep-field";
export { getStateCities, useStateCities } from "./api/state-cities";
export { CityField, CITIES_FAILED_TEXT, CITIES_LOADING_TEXT } from "./components/city-field";

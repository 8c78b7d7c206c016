// The jobs feature's public surface: the app and other features import only this (eslint.config.js).
export { isFinalJobState, useJobState, type JobPollingOptions, type JobStateView } from "./api/get-job";
export { JobProgress } from "./components/job-progress";

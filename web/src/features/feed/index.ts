// The feed feature's public surface: the app and other features import only this (eslint.config.js).
// The activity page loads it on demand for an activity's comments and likes; the console
// reads the moderation shapes (types only: nothing of the feed ships with it).
export { ActivityComments } from "./components/activity-comments";
export type {
  FeedAuthor,
  FeedVideo,
  ReportedItem,
  ReportedItemList,
  ReportedKind,
  ReportState,
  ReviewDecision,
  ReviewRequest,
} from "./api/types";

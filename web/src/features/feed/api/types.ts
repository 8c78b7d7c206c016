// The wall feed's shapes (docs/api-feed.md), as the API's contract generates them
// (src/types/openapi.gen.ts, `npm run api-types`).
import type { components } from "@/types/openapi.gen";

type Schemas = components["schemas"];

/** Who wrote a post or a comment. */
export type FeedAuthor = Schemas["FeedAuthor"];
export type VideoStatus = Schemas["VideoStatus"];
/** A member's upload, and a video post's video. */
export type FeedVideo = Schemas["VideoAnswer"];
export type FeedPost = Schemas["FeedPost"];
/** A page of the feed, newest first; `next` is null at the end of the feed. */
export type FeedPage = Schemas["FeedPage"];
export type FeedComment = Schemas["FeedComment"];
export type Likes = Schemas["Likes"];

export type NewTextPost = Schemas["TextPostRequest"];
export type NewImagePost = Schemas["ImagePostRequest"] & { imageType?: string };
export type NewVideoPost = Schemas["VideoPostRequest"];
export type PostLikeRequest = Schemas["PostLike"];
export type ActivityLikeRequest = Schemas["ActionLike"];
export type NewPostComment = Schemas["PostComment"];
export type NewActivityComment = Schemas["ActionComment"];
export type NewReply = Schemas["ActionReply"];
export type ReportRequest = Schemas["ReportRequest"];
export type Reported = Schemas["ReportAnswer"];
export type NewVideoUpload = Schemas["NewUpload"];
/** PATCH /uploads/videos/{id}'s 409: the offset sent was not what the server holds. */
export type UploadOffsetConflict = Schemas["OffsetConflict"];

// Moderation in the support console (GET /api/ops/reports).

export type ReportedKind = Schemas["ReportedKind"];
export type ReportState = "open" | "reviewed";
export type ReviewDecision = Schemas["ReviewDecision"];
export type ReportedItem = Schemas["ReportedItem"];
export type ReportedItemList = Schemas["ReportedItemList"];
export type ReviewRequest = Schemas["ReviewRequest"];

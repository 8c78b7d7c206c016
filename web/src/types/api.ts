// The API's shapes, named as the web app uses them. Every one is generated from the
// contract (docs/openapi.json, built from the Rust route definitions) into
// openapi.gen.ts by `npm run api-types`; nothing here describes a field by hand.

import type { components } from "./openapi.gen";

type Schemas = components["schemas"];

export type Establishment = Schemas["Establishment"];
export type StationConfig = Schemas["SiteConfig"];
export type Station = Schemas["Station"];
export type User = Schemas["User"];
export type UserAddress = Schemas["UserAddress"];
/** What a login answers and what the browser keeps in local storage. */
export type Session = Schemas["LoginResponse"];

/** Account types of spec 000 section 9. */
export const USER_TYPE_COMPANY_ADMIN = 1;
export const USER_TYPE_PARTICIPANT = 2;

export type JobState = Schemas["JobState"];
/** States a background job ends in. */
export type FinalJobState = Extract<JobState, "succeeded" | "failed" | "cancelled">;
/** States of a background job that may still change. */
export type PendingJobState = Exclude<JobState, FinalJobState>;
/** A background job as GET /api/jobs/{id} answers it. */
export type Job = Schemas["JobView"];

// The wallet (docs/api-wallet.md). Amounts are integer hundredths of a point (`*_cents`);
// the `points` numbers are the same amounts for display only.
export type WalletBalance = Schemas["WalletBalance"];
export type EarnTransaction = Schemas["EarnTransaction"];
export type UseTransaction = Schemas["UseTransaction"];

// The support console (docs/api-ops.md).
export type StaffRole = Schemas["Role"];
export type OpsMe = Schemas["StaffMe"];
export type OpsQueue = Schemas["QueueOverview"];
export type OpsJobSummary = Schemas["JobSummary"];
export type OpsJobList = Schemas["JobList"];
export type OpsRerunnableCount = Schemas["RerunnableCount"];
export type OpsAuditAction = Schemas["AuditAction"];
export type OpsAuditEntry = Schemas["AuditEntry"];
export type OpsJobDetail = Schemas["StaffJobPage"];
export type OpsAuditPage = Schemas["AuditList"];
export type OpsStation = Schemas["StationOverview"];
/** The filter of the job list, as the list query and the bulk re-run take it. */
export type OpsJobFilter = Schemas["BulkFilter"];
export type OpsBulkRerunAnswer = Schemas["BulkDone"];

// Activities (docs/api-activities.md).
/** When a member may take part, computed by the server at the time of the call. */
export type Availability = Schemas["Availability"];
export type RedirectLink = Schemas["RedirectLink"];
export type ActionPrerequisite = Schemas["RequiredActivity"];
export type Prerequisites = Schemas["Prerequisites"];
/** What rows, grids and search results need of an activity; amounts in whole points. */
export type ActivityCard = Schemas["ActivityCard"];
export type ActivityContent = Schemas["ActivityContent"];
/** One of an activity's videos: a custom one (a file of ours) or a YouTube or Vimeo one. */
export type ActivityVideo = Schemas["ActionVideo"];
/** The detail of an activity; `description` and `rules` are HTML sanitised by the server. */
export type Activity = Schemas["Activity"];
export type JourneyActivity = Schemas["JourneyActivity"];
export type Journey = Schemas["Journey"];
export type NowPlaying = Schemas["NowPlaying"];
export type CategoryAction = Schemas["CategoryAction"];
export type Category = Schemas["ParticipantCategory"];
export type RawContentParticipationRequest = Schemas["RawContentVisit"];
export type RawContentParticipation = Schemas["RawContentParticipation"];

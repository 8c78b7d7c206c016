// Shapes of the API answers the web app reads (see the contract in shared/spec).

export interface EstablishmentAddress {
  city: string;
  line_1: string;
  line_2: string | null;
  state: string;
  zipcode: string;
}

export interface Establishment {
  id: number;
  cnpj: string;
  full_social_name: string;
  address: EstablishmentAddress | null;
}

export interface StationConfig {
  station_id: number;
  /** The human-verification widget of public forms; "off" shows none. */
  captcha: { provider: "off" | "turnstile"; site_key: string | null };
}

export interface Station {
  id: number;
  name: string;
  subdomain: string;
  custom_host: string | null;
  url: string;
  domain: string;
  ios_link: string | null;
  android_link: string | null;
  has_app: boolean;
  has_majority_security: boolean;
  age_gate: boolean;
  public: boolean;
  affiliated: boolean;
  promotional: boolean;
  no_cpf: boolean;
  feed_access: boolean;
  events_access: boolean;
  files_access: boolean;
  checkout_access: boolean;
  my_account_access: boolean;
  address: string | null;
  phone: string | null;
  contact_mail: string | null;
  main_brand_color: string;
  secondary_brand_color: string | null;
  font_family: string;
  logo_image: string | null;
  header_image: string | null;
  favicon_image: string | null;
  currency_multiplier: number;
  currency_name: string;
  currency_name_position: "before_currency" | "after";
  /** Which sign-up form /cadastrar shows. */
  signup_flow: "multi_step" | "simple";
  /** The identifier the login form asks for. */
  login_with: "email" | "cpf";
  /** The station's plans; the API does not send them yet, so absent means none. */
  plans?: unknown[];
  createdAt: string;
  establishment: Establishment | null;
}

/** Account types of spec 000 section 9. */
export const USER_TYPE_COMPANY_ADMIN = 1;
export const USER_TYPE_PARTICIPANT = 2;

export interface User {
  id: number;
  name: string;
  email: string | null;
  cpf: string | null;
  tel: string | null;
  birthday: string | null;
  state: string | null;
  city: string | null;
  image: string | null;
  /** First part of the member's invite code `{invite_code}-U{id}-E{station_id}`. */
  invite_code: string | null;
  type_id: number;
  role: string;
  active: number;
  deletedAt: string | null;
  points: number;
  briefingDone: boolean;
  /** False for accounts created without a password (simple sign-up); they must set one. */
  has_password: boolean;
  station_id: number;
  establishment: Establishment | null;
  /** Postal addresses, the main one first. */
  addresses: UserAddress[];
}

export interface UserAddress {
  id: number;
  zipcode: string;
  line_1: string;
  number: string;
  line_2: string | null;
  neighborhood: string | null;
  city: string | null;
  state: string | null;
}

/** What a login answers and what the browser keeps in local storage. */
export interface Session {
  user: User;
  token: string;
}

/** States of a background job that may still change. */
export type PendingJobState = "queued" | "scheduled" | "running" | "retrying";

/** States a background job ends in. */
export type FinalJobState = "succeeded" | "failed" | "cancelled";

export type JobState = PendingJobState | FinalJobState;

/** A background job as GET /api/jobs/{id} answers it. */
export interface Job {
  id: string;
  kind: string;
  state: JobState;
  attempts: number;
  max_attempts: number;
  run_at: string;
  started_at: string | null;
  finished_at: string | null;
  /** 0–100, or null while the job has not said how far it is. */
  progress: number | null;
  /** Any JSON, once the job succeeded. */
  result: unknown;
  /** A safe summary of the last failure, while retrying or once failed. */
  error: string | null;
}

// The wallet (docs/api-wallet.md). Amounts are integer hundredths of a point (`*_cents`);
// the `points` numbers are the same amounts for display only.

/** GET /api/users-points/{userId}. */
export interface WalletBalance {
  user_id: number;
  points: number;
  points_cents: number;
  pending_points: number;
  pending_cents: number;
}

export type CreditState = "pending" | "available" | "reversed" | "expired";

export type CreditSourceKind = "activity" | "purchase" | "invitation" | "donation" | "refund" | "topup" | "adjustment";

/** What a statement line came from; `id` is null when it was not an activity. */
export interface TransactionAction {
  id: number | null;
  name: string;
}

/** A credit, as GET /api/earn-points-transactions/ lists it. */
export interface EarnTransaction {
  id: number;
  points: number;
  points_cents: number;
  state: CreditState;
  source_kind: CreditSourceKind;
  createdAt: string;
  /** When the holding period ends. */
  available_at: string;
  released_at: string | null;
  expires_at: string | null;
  action: TransactionAction;
}

/** What a spend came from (docs/api-wallet.md). */
export type SpendSourceKind = "purchase" | "donation" | "transfer" | "adjustment";

/** A spend, as GET /api/use-points-transactions/ lists it. */
export interface UseTransaction {
  id: number;
  points: number;
  points_cents: number;
  source_kind: SpendSourceKind;
  createdAt: string;
  action: TransactionAction;
}

// The support console (docs/api-ops.md).

export type StaffRole = "support" | "viewer";

export interface NamedRef {
  id: number;
  name: string;
}

export interface PersonRef extends NamedRef {
  email: string | null;
}

/** GET /api/ops/me: who is using the console and what they may do. */
export interface OpsMe {
  user: PersonRef;
  role: StaffRole;
  /** The one station of the grant, or null for every station. */
  station: NamedRef | null;
  can_act: boolean;
}

export type JobStateCounts = Record<JobState, number>;

export interface OpsQueue {
  name: string;
  paused: boolean;
  paused_at: string | null;
  paused_by: NamedRef | null;
  counts: JobStateCounts;
}

/** A job as the console lists it. */
export interface OpsJobSummary {
  id: string;
  queue: string;
  state: JobState;
  attempts: number;
  max_attempts: number;
  created_at: string;
  run_at: string;
  finished_at: string | null;
  error: string | null;
  station_id: number | null;
  user_id: number | null;
  /** The business record the job serves. */
  subject: { kind: string; id: string } | null;
  /** Whether the job's state allows a re-run / a cancel (the server's one definition). */
  can_rerun: boolean;
  can_cancel: boolean;
}

export interface OpsJobList {
  jobs: OpsJobSummary[];
  /** Where the next (older) page starts, passed as `before`; null when nothing older is left. */
  next_cursor: string | null;
  /** How many jobs matching the filter a bulk re-run would touch, counted up to 10 001. */
  rerunnable: number;
  per_page: number;
}

/** One failed attempt of a job; a re-run counts again from 1, so numbers can repeat. */
export interface OpsJobFailure {
  attempt: number;
  worker: string;
  summary: string;
  detail: string;
  failed_at: string;
}

export type OpsAuditAction =
  | "job.rerun"
  | "jobs.rerun"
  | "job.cancel"
  | "queue.pause"
  | "queue.resume"
  | "cashback.release";

export interface OpsAuditEntry {
  id: number;
  created_at: string;
  user: PersonRef;
  action: OpsAuditAction;
  station_id: number | null;
  job_ids: string[];
  details: Record<string, unknown>;
}

/** GET /api/ops/jobs/{id}: the summary and everything staff need to understand the job. */
export interface OpsJobDetail extends OpsJobSummary {
  payload: unknown;
  result: unknown;
  /** 0–100 while the job says how far it is, else null. */
  progress: number | null;
  started_at: string | null;
  /** Every failed attempt, oldest first. */
  failures: OpsJobFailure[];
  owner: { station: NamedRef | null; user: PersonRef | null };
  /** The newest staff actions naming the job. */
  audit: OpsAuditEntry[];
}

export interface OpsAuditPage {
  entries: OpsAuditEntry[];
  total: number;
  page: number;
  per_page: number;
}

export interface OpsStation {
  id: number;
  name: string;
  subdomain: string;
  release: { expression: string; enabled: boolean; last_tick: string | null };
  pending: { lots: number; amount_cents: number; due_lots: number; due_amount_cents: number };
}

/** The filter of the job list, as the list query and the bulk re-run take it. */
export interface OpsJobFilter {
  queue?: string;
  state?: JobState;
  from?: string;
  to?: string;
  q?: string;
  station_id?: number;
}

export interface OpsBulkRerunAnswer {
  rerun: number;
  job_ids: string[];
}

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

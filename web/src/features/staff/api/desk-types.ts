// The service desk's wire shapes (docs/api-services.md, "The desk in the console"), written by
// hand: they mirror the contract until the generated types (src/types/openapi.gen.ts) carry
// them, and then give way to those.

/** A station's desk. */
export type DeskName = "legal" | "accounting" | "health" | "political";

/** What an appointment is for; the health desk keeps three services. */
export type DeskService = "legal" | "accounting" | "dental" | "psychologist" | "nutritionist";

export type DeskAppointmentStatus = "requested" | "confirmed" | "done" | "absent" | "cancelled";

/** One desk a staff member reaches, and whether they may act on it (a viewer only reads). */
export interface DeskGrant {
  station_id: number;
  station_name: string;
  desk: DeskName;
  can_act: boolean;
}

/** GET /api/ops/desk/me (403 when the account reaches no desk). */
export interface DeskMe {
  user: { id: number; name: string };
  desks: DeskGrant[];
}

export interface DeskMember {
  id: number;
  name: string;
  email: string | null;
}

export interface DeskOffice {
  id: number;
  name: string;
}

/** A health appointment's co-payment, half of it credited to the member as cashback. */
export interface DeskCopay {
  amount_cents: number;
  cashback_cents: number;
}

export interface DeskAppointment {
  id: number;
  station_id: number;
  service: DeskService;
  /** Digits. */
  cpf: string;
  /** The member who asked; null for one imported before they joined. */
  member: DeskMember | null;
  /** The weekday the member prefers ("Quinta-feira"). */
  preferred_day: string | null;
  description: string;
  /** Digits (health). */
  phone: string | null;
  status: DeskAppointmentStatus;
  /** The confirmed instant (RFC 3339); null while requested. */
  scheduled_at: string | null;
  office: DeskOffice | null;
  cancelled_by: "member" | "staff" | null;
  created_at: string;
  copay: DeskCopay | null;
}

export interface DeskAppointmentPage {
  appointments: DeskAppointment[];
  total: number;
  page: number;
  per_page: number;
}

/** POST /api/ops/desk/appointments/{id}/confirm. */
export interface DeskConfirmation {
  /** RFC 3339 with the station's offset, "2026-12-03T09:00:00-03:00". */
  scheduled_at: string;
  office_id: number | null;
}

/** A case (the spec's processo) a legal or accounting desk follows for a CPF. */
export interface DeskCase {
  id: number;
  station_id: number;
  service: "legal" | "accounting";
  cpf: string;
  case_number: string;
  kind: string;
  situation: string;
  /** YYYY-MM-DD. */
  filed_on: string | null;
  court: string;
  title: string;
  claim_cents: number | null;
  link: string | null;
  /** 'Causas coletivas' on the member's page. */
  collective: boolean;
  updated_at: string;
}

/** What the desk records or edits (POST .../cases, PUT /api/ops/desk/cases/{id}). */
export type DeskCaseInput = Omit<DeskCase, "id" | "station_id" | "service" | "updated_at">;

export interface DeskCasePage {
  cases: DeskCase[];
  total: number;
  page: number;
  per_page: number;
}

export interface DeskSuggestion {
  id: number;
  member: DeskMember | null;
  description: string;
  created_at: string;
}

export interface DeskSuggestionPage {
  suggestions: DeskSuggestion[];
  total: number;
  page: number;
  per_page: number;
}

/** POST /api/ops/stations/{id}/news. */
export interface DeskNewsInput {
  title: string;
  subtitle: string;
  /** HTML; the server sanitises it. */
  body: string;
  tags: number[];
}

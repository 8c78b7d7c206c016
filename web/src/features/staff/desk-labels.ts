// What the service desk's console pages call desks, services and appointment states (the
// member's pages say the same: docs/api-services.md, "GET /api/legal-appointments").
import type { AppointmentStatus, DeskAppointment, DeskOpen } from "@/types/api";

/** A station's desk (the API's `desk`). */
export type DeskName = "legal" | "accounting" | "health" | "political";

/** What an appointment is for (the API's `service`); the health desk keeps three services. */
export type DeskService = "legal" | "accounting" | "dental" | "psychologist" | "nutritionist";

/** A desk a staff member reaches, of a desk the console knows. */
export type DeskGrant = DeskOpen & { desk: DeskName };

/** The console's 'Atendimento': the desks a staff member reaches. */
export const DESKS_PATH = "/ops/desk";
export const DESKS_LABEL = "Atendimento";

export const DESKS: readonly DeskName[] = ["legal", "accounting", "health", "political"];

/** As domain::services::Desk::label. */
export const DESK_LABELS: Record<DeskName, string> = {
  legal: "Consultoria jurídica",
  accounting: "Consultoria contábil",
  health: "Saúde",
  political: "Político-sindical",
};

/** Each desk's news tag (spec 002 section 9); health has none. */
export const DESK_NEWS_TAGS: Record<DeskName, number | null> = {
  legal: 13752,
  accounting: 13754,
  health: null,
  political: 13755,
};

export const SERVICE_LABELS: Record<DeskService, string> = {
  legal: "Consultoria jurídica",
  accounting: "Consultoria contábil",
  dental: "Odontologia",
  psychologist: "Psicologia",
  nutritionist: "Nutrição",
};

export const APPOINTMENT_STATUSES: readonly AppointmentStatus[] = ["requested", "confirmed", "done", "absent", "cancelled"];

export const APPOINTMENT_STATUS_LABELS: Record<AppointmentStatus, string> = {
  requested: "Aguardando confirmação",
  confirmed: "Agendado",
  done: "Concluído",
  absent: "Não compareceu",
  cancelled: "Cancelado",
};

/** The console's badge colours (ops.css) for each state; cancelled keeps the plain badge. */
export const APPOINTMENT_STATUS_BADGES: Record<AppointmentStatus, string | null> = {
  requested: "retrying",
  confirmed: "running",
  done: "succeeded",
  absent: "failed",
  cancelled: null,
};

export function deskOf(text: string | undefined): DeskName | null {
  return DESKS.find((desk) => desk === text) ?? null;
}

export function isDeskGrant(open: DeskOpen): open is DeskGrant {
  return deskOf(open.desk) !== null;
}

/** The desk's name; one the console does not know, as the API says it. */
export function deskLabel(desk: string): string {
  const known = deskOf(desk);
  return known ? DESK_LABELS[known] : desk;
}

/** The appointment's service; one the console does not know, as the API says it. */
export function serviceLabel(service: string): string {
  const known = (Object.keys(SERVICE_LABELS) as DeskService[]).find((candidate) => candidate === service);
  return known ? SERVICE_LABELS[known] : service;
}

export function appointmentStatusOf(text: string | null): AppointmentStatus | null {
  return APPOINTMENT_STATUSES.find((status) => status === text) ?? null;
}

/** What staff may do with an appointment in its state (the server refuses the rest with 409). */
export type AppointmentChoice = "confirm" | "done" | "absent" | "cancel" | "copay";

export function choicesFor(appointment: DeskAppointment, desk: DeskName): AppointmentChoice[] {
  switch (appointment.status) {
    case "requested":
      return ["confirm", "cancel"];
    case "confirmed":
      return ["confirm", "done", "absent", "cancel"];
    case "done":
      return desk === "health" && appointment.copay === null && appointment.member !== null ? ["copay"] : [];
    default:
      return [];
  }
}

/** The button of each choice; confirming one already confirmed re-schedules it. */
export function choiceLabel(choice: AppointmentChoice, appointment: DeskAppointment): string {
  switch (choice) {
    case "confirm":
      return appointment.status === "confirmed" ? "Reagendar" : "Confirmar";
    case "done":
      return "Concluído";
    case "absent":
      return "Não compareceu";
    case "cancel":
      return "Cancelar";
    case "copay":
      return "Registrar coparticipação";
  }
}

/** "123.456.789-09" from the digits the API keeps. */
export function formatCpf(digits: string): string {
  return /^\d{11}$/.test(digits) ? `${digits.slice(0, 3)}.${digits.slice(3, 6)}.${digits.slice(6, 9)}-${digits.slice(9)}` : digits;
}

// The member services' wire shapes (docs/api-services.md). Written by hand: they mirror the
// contract until the generated types land (the routes are not in docs/openapi.json yet);
// then each becomes `Schemas["<Name>"]` in types/api.ts under the same name.

/** The desks a page names in its address (`GET /api/services/{desk}`). */
export type Desk = "legal" | "accounting" | "health" | "political";

/** The desks with a news page (`GET /api/{desk}/news`). */
export type NewsDesk = "legal" | "accounting" | "political";

/** The desks members book appointments with and look cases up in. */
export type CaseDesk = "legal" | "accounting";

export interface ServiceContact {
  name: string;
  role: string;
  email: string;
  phone: string;
}

export interface ServicePlaylist {
  slug: string;
  title: string;
  url: string | null;
}

/** GET /api/services/{desk}: the pages' content (an absent desk row: empty lists and texts). */
export interface ServicePage {
  desk: Desk;
  contatos: ServiceContact[];
  orientacoes: string;
  informacoes: string;
  playlists: ServicePlaylist[];
}

/** GET /api/legal-processes: `valorCausa` in centavos (null: unknown); `publicadoPortal` true is 'Causas coletivas'. */
export interface LegalProcess {
  id: number;
  numeroProcesso: string;
  tipo: string;
  situacao: string;
  /** A civil date, YYYY-MM-DD. */
  dataProtocolo: string;
  tribunalOrgao: string;
  titulo: string;
  valorCausa: number | null;
  linkProcesso: string | null;
  publicadoPortal: boolean;
}

/** GET /api/accounting-processes: as legal (the page shows neither `titulo` nor `publicadoPortal`). */
export type AccountingProcess = LegalProcess;

export type AppointmentStatus = "requested" | "confirmed" | "done" | "absent" | "cancelled";

/** GET /api/legal-appointments and /api/accounting-appointments. */
export interface ServiceAppointment {
  id: number;
  /** The confirmed instant; null while `requested`. */
  data: string | null;
  /** Its hour on the station's clock ("09:00"); null with `data`. */
  horaInicio: string | null;
  status: AppointmentStatus;
  /** The status as members read it ('Agendado', 'Não compareceu'...). */
  situacao: string;
  diaPreferido: string | null;
  descricao: string;
  conclusao: { isFiliadoAusente: boolean };
  /** Null for one without an office. */
  escritorio: { id: number; nome: string } | null;
  /** `requested`, or `confirmed` more than 48 hours ahead. */
  cancelavel: boolean;
}

/** POST /api/legal-appointments and /api/accounting-appointments. */
export interface ServiceAppointmentRequest {
  /** The preferred weekday as the form offers it ('Segunda-feira'). */
  date: string;
  description: string;
}

/** 201 of every request. */
export interface ServiceRequestCreated {
  id: number;
  message: string;
}

/** POST /api/cancel-legal-appointments. */
export interface CancelLegalAppointment {
  escritorioId: number | null;
  appointmentId: number;
}

/** 200 of POST /api/cancel-legal-appointments. */
export interface ServiceMessage {
  message: string;
}

/** GET /api/{desk}/news?page=&tagId=: 9 a page, newest first. */
export interface ServiceNewsItem {
  id: number;
  date: string;
  title: { rendered: string };
  content: { rendered: string };
  subtitle: string | null;
  image: string | null;
  image_srcset: string | null;
}

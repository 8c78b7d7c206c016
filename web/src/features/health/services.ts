// The health desk's three services (spec 002 "Health", "Other forms"), as
// domain::services::AppointmentService has them: each its form's path, its info page, its
// request route (spellings as in the contract) and the weekdays it attends.

export const HEALTH_PATH = "/homepage/saude";

export type HealthServiceId = "dental" | "psychologist" | "nutritionist";

/** The weekdays the forms offer, Monday to Saturday, as the API reads them. */
export const WEEKDAYS = ["Segunda-feira", "Terça-feira", "Quarta-feira", "Quinta-feira", "Sexta-feira", "Sábado"] as const;

export type Weekday = (typeof WEEKDAYS)[number];

export interface HealthService {
  id: HealthServiceId;
  /** The service's name on the landing. */
  name: string;
  /** The form page's heading. */
  formTitle: string;
  /** The info page's heading. */
  infoTitle: string;
  /** The form's slug under /homepage/saude; its info page is `${slug}-info`. */
  slug: string;
  /** The request route, under /api. */
  endpoint: string;
  weekdays: readonly Weekday[];
  /** The days it attends, as the info page and the landing say them. */
  daysText: string;
}

export const HEALTH_SERVICES: readonly HealthService[] = [
  {
    id: "dental",
    name: "Odontologia",
    formTitle: "Agendamento odontológico",
    infoTitle: "Odontologia: informações",
    slug: "agendamento-odontologia",
    endpoint: "/health/dentalAppointments",
    weekdays: WEEKDAYS,
    daysText: "de segunda-feira a sábado",
  },
  {
    id: "psychologist",
    name: "Psicologia",
    formTitle: "Agendamento com psicólogo",
    infoTitle: "Psicologia: informações",
    slug: "agendamento-psicologia",
    endpoint: "/health/psychologistAappointments",
    weekdays: WEEKDAYS.slice(0, 5),
    daysText: "de segunda-feira a sexta-feira",
  },
  {
    id: "nutritionist",
    name: "Nutricionista",
    formTitle: "Agendamento com nutricionista",
    infoTitle: "Nutricionista: informações",
    slug: "agendamento-nutricionista",
    endpoint: "/health/nutritionistAppointments",
    weekdays: ["Terça-feira", "Quinta-feira"],
    daysText: "às terças-feiras e quintas-feiras",
  },
];

export function healthService(id: HealthServiceId): HealthService {
  const service = HEALTH_SERVICES.find((candidate) => candidate.id === id);
  if (!service) throw new Error(`unknown health service ${id}`);
  return service;
}

export const formPath = (service: HealthService) => `${HEALTH_PATH}/${service.slug}`;
export const infoPath = (service: HealthService) => `${HEALTH_PATH}/${service.slug}-info`;

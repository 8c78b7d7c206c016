// The health desk's wire shapes, written by hand to mirror docs/api-services.md ("Common
// rules", "Health") until the routes are in docs/openapi.json; then these become
// `Schemas["..."]` aliases in @/types/api, under the same names.

/** The body of POST /health/dentalAppointments, psychologistAappointments and nutritionistAppointments. */
export interface HealthAppointmentRequest {
  description: string;
  /** The preferred weekday as the forms offer it: 'Segunda-feira' ... 'Sábado'. */
  date: string;
  /** Digits only (10 or 11); the API also reads the mask (99) 9.9999-9999. */
  phone: string;
}

/** 201 of every member request: `{ "id": 12, "message": "Solicitação enviada com sucesso." }`. */
export interface ServiceRequestCreated {
  id: number;
  message: string;
}

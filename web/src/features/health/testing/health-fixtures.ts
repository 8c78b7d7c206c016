// The health desk's calls and answers (docs/api-services.md "Health"), for component tests.
import type { ServiceRequestCreated } from "@/types/api";
import { buildStation } from "@/testing/fixtures";

export const DENTAL_CALL = "POST /api/health/dentalAppointments";
export const PSYCHOLOGIST_CALL = "POST /api/health/psychologistAappointments";
export const NUTRITIONIST_CALL = "POST /api/health/nutritionistAppointments";

export const HEALTH_STATION = buildStation({ health_access: true });

export function buildRequestCreated(overrides: Partial<ServiceRequestCreated> = {}): ServiceRequestCreated {
  return { id: 12, message: "Solicitação enviada com sucesso.", ...overrides };
}

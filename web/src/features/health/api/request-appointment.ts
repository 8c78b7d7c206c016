// A health appointment request (docs/api-services.md "Health"): POST to the service's own
// route with description, preferred weekday and phone (digits); 201 with the catalogue's
// 'Solicitação enviada com sucesso.'. A refusal shows its first message, else 'Erro'
// (spec 002 section 8), on the form itself rather than the default toast.
import { useMutation } from "@tanstack/react-query";
import type { HealthAppointmentRequest, ServiceRequestCreated } from "@/types/api";
import type { HealthService } from "@/features/health/services";
import { api, firstMessageOf } from "@/lib/api-client";
import { OWN_ERROR_TEXT } from "@/lib/query-client";

/** The catalogue's fallback when a refusal carries no message. */
export const REQUEST_FAILURE_TEXT = "Erro";

export function requestHealthAppointment(service: HealthService, body: HealthAppointmentRequest) {
  return api.post<ServiceRequestCreated>(service.endpoint, body);
}

/** The first entry of the answer's `messages`, else 'Erro'. */
export function requestFailureText(error: unknown): string {
  return firstMessageOf(error) ?? REQUEST_FAILURE_TEXT;
}

export function useRequestHealthAppointment(service: HealthService) {
  return useMutation({
    mutationFn: (body: HealthAppointmentRequest) => requestHealthAppointment(service, body),
    meta: OWN_ERROR_TEXT,
  });
}

// The enterprise plan's contact form (POST /subscription-plans/enterprise-contact): e-mailed
// to the station.
import { useMutation } from "@tanstack/react-query";
import type { EnterpriseContactRequest } from "@/features/subscriptions/api/types";
import { api } from "@/lib/api-client";
import { OWN_ERROR_TEXT } from "@/lib/query-client";

export function sendEnterpriseContact(body: EnterpriseContactRequest): Promise<unknown> {
  return api.post<unknown>("/subscription-plans/enterprise-contact", body);
}

export function useEnterpriseContact() {
  return useMutation({ mutationFn: sendEnterpriseContact, meta: OWN_ERROR_TEXT });
}

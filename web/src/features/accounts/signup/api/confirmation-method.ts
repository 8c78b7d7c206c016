import { useMutation } from "@tanstack/react-query";
import { api } from "@/lib/api-client";

export interface ConfirmationMethodPayload {
  station_id: number;
  user_id: number;
  type: "email";
  email: string | null;
  tel: string | null;
  id: number | null;
}

interface ConfirmationMethodAnswer {
  email: string;
  resend_in: number;
  job_id: string;
}

export function chooseConfirmationMethod(payload: ConfirmationMethodPayload) {
  return api.post<ConfirmationMethodAnswer>("/auth/confirmation-method", payload);
}

export function useConfirmationMethod() {
  return useMutation({ mutationFn: chooseConfirmationMethod });
}

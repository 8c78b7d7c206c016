import { useMutation } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import type { ConfirmationMethodRequest, ResendAnswer } from "@/types/api";

/** Sends a code to the account's own e-mail; the answer is the same whatever the account. */
export function chooseConfirmationMethod(request: ConfirmationMethodRequest) {
  return api.post<ResendAnswer>("/auth/confirmation-method", request);
}

export function useConfirmationMethod() {
  return useMutation({ mutationFn: chooseConfirmationMethod });
}

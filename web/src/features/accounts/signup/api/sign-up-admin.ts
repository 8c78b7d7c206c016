// The company creator's call. Its failures list every message (spec 000 section 8), read
// from the error body rather than the api client's first-message text.
import { useMutation } from "@tanstack/react-query";
import { api, ApiError } from "@/lib/api-client";
import type { AdminSignUpAnswer, AdminSignUpRequest } from "@/types/api";

/** Every text in an error body, however deeply the server nested it. */
export function nestedMessages(value: unknown): string[] {
  if (typeof value === "string") return value.trim() === "" ? [] : [value];
  if (Array.isArray(value)) return value.flatMap(nestedMessages);
  if (typeof value === "object" && value !== null) {
    const { messages, error } = value as { messages?: unknown; error?: unknown };
    if (messages !== undefined || error !== undefined) return [...nestedMessages(messages), ...nestedMessages(error)];
    return Object.values(value).flatMap(nestedMessages);
  }
  return [];
}

/** Every message of a refused admin sign-up (the catalogue lists them all), never none. */
export function adminSignUpMessages(error: Error): string[] {
  const nested = error instanceof ApiError ? nestedMessages(error.body) : [];
  return nested.length > 0 ? nested : [error.message];
}

export function signUpAdmin(request: AdminSignUpRequest): Promise<AdminSignUpAnswer> {
  return api.post<AdminSignUpAnswer>("/auth/signup-admin", request);
}

export function useAdminSignUp() {
  return useMutation({ mutationFn: signUpAdmin });
}

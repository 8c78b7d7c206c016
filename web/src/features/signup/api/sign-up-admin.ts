// The company creator's call. Its failures list every message (spec 000 section 8), so this
// one call reads the error body itself instead of the api client's first-message text.
import { useMutation } from "@tanstack/react-query";
import { API_BASE_PATH, ApiError, INTERNAL_SERVER_ERROR_TEXT, NO_RESPONSE_STATUS } from "@/lib/api-client";
import type { AdminSignUpAnswer, ImagePayload } from "@/features/signup/api/types";
import { USER_TYPE_COMPANY_ADMIN } from "@/types/api";

export interface AdminSignUpPayload {
  name: string;
  email: string;
  password: string;
  password_confirmation: string;
  cpf: string;
  tel: string;
  birthday: string;
  cnpj: string;
  full_social_name: string;
  prettyName: string;
  subdomain: string;
  country: "BR";
  main_brand_image: ImagePayload | null;
  main_brand_color: string;
  type: typeof USER_TYPE_COMPANY_ADMIN;
  captcha: string;
}

/** A refused admin sign-up, with every message the server gave. */
export class AdminSignUpError extends ApiError {
  readonly messages: string[];

  constructor(status: number, messages: string[]) {
    super(status, messages[0] ?? INTERNAL_SERVER_ERROR_TEXT);
    this.messages = messages.length > 0 ? messages : [INTERNAL_SERVER_ERROR_TEXT];
  }
}

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

export async function signUpAdmin(payload: AdminSignUpPayload): Promise<AdminSignUpAnswer> {
  let response: Response;
  try {
    response = await fetch(`${API_BASE_PATH}/auth/signup-admin`, {
      method: "POST",
      headers: { Accept: "application/json", "Content-Type": "application/json" },
      body: JSON.stringify(payload),
    });
  } catch {
    throw new AdminSignUpError(NO_RESPONSE_STATUS, []);
  }
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok || body === null) {
    throw new AdminSignUpError(response.status, response.ok ? [] : nestedMessages(body));
  }
  return body as AdminSignUpAnswer;
}

export function useAdminSignUp() {
  return useMutation({ mutationFn: signUpAdmin });
}

// Form rules that are not shared validators (those are in lib/validators).
import { age18, MESSAGES } from "@/lib/validators";

export const PASSWORDS_DIFFER = "As senhas não conferem.";

/** The confirmation must repeat the `password` field. */
export function matchesPassword<V extends { password: string }>(value: string, values: V): string | undefined {
  return value === values.password ? undefined : PASSWORDS_DIFFER;
}

/** The captcha holds a token ("off" when the deployment checks none). */
export function requiredCaptcha(value: string): string | undefined {
  return value ? undefined : MESSAGES.required;
}

/** age18 on today's date (a rule's second argument is the form's values, not a date). */
export function adult(value: string): string | undefined {
  return age18(value);
}

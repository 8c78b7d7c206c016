// Navigation state the account screens send and read. Other features import these types
// so both ends of a navigation agree on its shape.
import type { SignUpLocationState } from "@/features/accounts/signup/api/types";
import type { AffiliateInfo } from "@/types/api";

/**
 * State of the navigation to /cadastrar after the login's 401 for an account that is not
 * activated yet: the sign-up form opens at step 2 (choose where to receive the verification
 * code) for the account in `affiliate`, the body's masked credentials. The sign-up screen
 * owns the shape (SignUpLocationState); this is the part the login always sends.
 */
export type CadastrarLocationState = SignUpLocationState & { stepForm: 2; affiliate: AffiliateInfo };

/**
 * State of a navigation to /confirmacao/{email}. `userId` identifies the account when the
 * e-mail in the path is masked (affiliated flow): activation sends it, and a new code is
 * asked through the confirmation method call rather than by e-mail address.
 */
export interface ConfirmacaoLocationState {
  userId?: number;
}

/** State of a navigation to /login after activating an account or resetting a password. */
export interface LoginLocationState {
  wasActived?: boolean;
  wasRecovered?: boolean;
}

/** Reads navigation state of an expected shape, or nothing when absent or of another kind. */
export function locationStateOf<T extends object>(state: unknown): Partial<T> {
  return typeof state === "object" && state !== null ? state : {};
}

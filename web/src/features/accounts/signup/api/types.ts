// Shapes of the sign-up calls (docs/api-accounts.md, "Sign-up" and "Member data").
import type { Station, User } from "@/types/api";

/** The credentials response of the step-0 check; masked for an affiliated person. */
export interface AffiliateInfo {
  id: number | null;
  email: string | null;
  celular: string | null;
  tel: string | null;
  isFiliado: boolean;
}

export interface MemberGetMember {
  action_id: number;
  inviter_id: number;
  /** The whole invite code; the server records the invitation only when it checks out. */
  code: string;
}

export interface SignUpSession {
  user: User;
  token: string;
}

export interface AdminSignUpAnswer extends SignUpSession {
  station: Partial<Station>;
}

/** A picture as the API takes it. */
export interface ImagePayload {
  imageType: string;
  base64: string;
}

/** What the login screen (or step 1) hands to /cadastrar to open the code step. */
export interface SignUpLocationState {
  stepForm?: number;
  affiliate?: AffiliateInfo;
}

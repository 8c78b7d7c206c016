// What the sign-up screens hand each other; the API's shapes are in @/types/api.
import type { AffiliateInfo } from "@/types/api";

/** What the login screen (or step 1) hands to /cadastrar to open the code step. */
export interface SignUpLocationState {
  stepForm?: number;
  affiliate?: AffiliateInfo;
}

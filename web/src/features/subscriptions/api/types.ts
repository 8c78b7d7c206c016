// The shapes of the plans and subscriptions calls as the feature uses them: the contract's
// (types/api.ts), and the narrower forms the feature builds.
import type { PlanPurchaseRequest, ProductSubscriptionRequest, SubscriptionCardFields } from "@/types/api";

export type {
  ActionSubscription as ActionSubscriptionOption,
  EnterpriseContactRequest,
  NewSavedCard,
  Plan,
  PlanBenefit,
  PlanCancelRequest as CancelPlanRequest,
  SavedCard as SavedSubscriptionCard,
  SubscribedAction,
  SubscriptionCard,
  SubscriptionCharge,
  UserSubscription,
} from "@/types/api";

/** A new card as the subscription calls take it: the browser's token and the billing data. */
export type NewCardPayload = Required<
  Pick<
    SubscriptionCardFields,
    | "card_token"
    | "card_holder_name"
    | "card_expiration_date"
    | "cpf"
    | "birthday"
    | "phone"
    | "zipcode"
    | "street"
    | "street_number"
    | "neighborhood"
    | "state"
    | "city"
  >
> & { card_token: string };

/** A saved card, or a new card's token and billing data. */
export type CardChoice = { selected_card: number } | (NewCardPayload & { save: boolean });

// The card fields have server defaults (null): a body sends only what it chooses.
export type PlanPurchaseBody = Partial<PlanPurchaseRequest> & { plan_id: number };
export type ProductSubscriptionBody = Partial<ProductSubscriptionRequest> &
  Required<Pick<ProductSubscriptionRequest, "action_id" | "action_subscription_id" | "products">>;

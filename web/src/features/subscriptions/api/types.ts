// The shapes of the plans and subscriptions calls (docs/api-subscriptions.md), as the
// feature uses them. Money is integer centavos.
export interface PlanBenefit {
  id: number;
  benefit: string;
}

/** A plan of the station; `amount` null is 'A negociar'. */
export interface Plan {
  id: number;
  external_id: string | null;
  name: string;
  description: string;
  benefits: PlanBenefit[];
  amount: number | null;
  discount: number;
  days: number;
  is_highlighted: boolean;
  deletedAt: string | null;
  image: string | null;
  purchase_text: string | null;
}

export interface SubscriptionCard {
  brand: string;
  last_digits: string;
  /** "MM/YY". */
  expiration_date: string | null;
}

/** The member's plan (`User.subscription`). */
export interface UserSubscription {
  id: number;
  plan: Plan;
  status: string;
  card: SubscriptionCard | null;
  current_period_end: string | null;
  cancel_at_period_end: boolean;
  next_plan: Plan | null;
  /** The last paid period's charge: the confirmation shows once it has a date. */
  transaction: { id: number | string; date_created: string | null } | null;
  internal_id: string | null;
}

/** One charge of 'Minhas assinaturas' (`GET /subscriptions/?where[user_id]=`). */
export interface SubscriptionCharge {
  id: number;
  subscription_id: number;
  actionId: number | null;
  plan_id: number | null;
  name: string;
  action_subscription: { description: string } | null;
  cancelled: boolean;
  paid: boolean;
  status: string;
  vigencia: string;
  priceFormatted: string;
  paidFormatted: string;
  recurrenceFormatted: string;
  createdAt: string;
}

/** A type 21 activity's recurrence choice. */
export interface ActionSubscriptionOption {
  id: number;
  recurrence: string;
  description: string | null;
}

/** A new card as the subscription calls take it: the browser's token and the billing data. */
export interface NewCardPayload {
  card_token: string;
  card_holder_name: string;
  cpf: string;
  birthday: string;
  phone: string;
  zipcode: string;
  street: string;
  street_number: string;
  neighborhood: string;
  state: string;
  city: string;
}

/** A saved card, or a new card's token and billing data. */
export type CardChoice = { selected_card: number } | (NewCardPayload & { save: boolean });

export type BuyPlanRequest = { plan_id: number } & Partial<CardChoice>;
export type ChangePlanRequest = { plan_id: number } & Partial<CardChoice>;

export type ProductSubscriptionRequest = {
  action_id: number;
  action_subscription_id: number;
  products: { id: number; quantity: number }[];
} & CardChoice;

export interface ProductSubscriptionCreated {
  id: number;
  action_id: number;
}

export interface CancelPlanRequest {
  cancelReason: string;
}

export interface EnterpriseContactRequest {
  message: string;
  captcha: string;
}

/** What `POST /user-credit-cards` answers. */
export interface SavedSubscriptionCard {
  id: number;
  brand: string;
  last_digits: string;
  issuing: string;
  expiration_date: string | null;
}

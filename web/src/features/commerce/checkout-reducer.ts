// The cart page's checkout as a pure state machine (spec 002 sections 2, 4, 5 and 8): which
// step shows, the hold, the delivery choices, the coupon, the placed order and the failure
// dialog. The page turns the server's answers into these events and keeps the side effects
// (requests, toasts, reading the cart again) to itself, so every transition is testable
// without rendering.
import type { DeliveryChoice } from "@/features/commerce/checkout";
import type { CouponApplied, Order, Reservation } from "@/types/api";

/**
 * 'Meu carrinho' (nothing held), delivery and pickup, payment, 'Confira seu pedido', and
 * the placed order (for a PIX, the PIX screen first).
 */
export type CheckoutStep = "cart" | "delivery" | "payment" | "review" | "placed";

export interface CheckoutState {
  step: CheckoutStep;
  /** The hold 'Ir para entrega' made; its `expires_at` runs the countdown. */
  reservation: Reservation | null;
  /** Per activity id, the delivery or pickup chosen. */
  choices: Readonly<Record<number, DeliveryChoice>>;
  /** The member tried to leave the delivery step: its errors show from then on. */
  deliveryTried: boolean;
  coupon: CouponApplied | null;
  couponOpen: boolean;
  /** Why the server refused the last coupon, shown under the dialog's field. */
  couponError: string | undefined;
  /** The order as placed, or as the PIX check found it paid. */
  order: Order | null;
  /** The failed-payment dialog's messages, while it is open. */
  failure: string[] | null;
  /** The order answered with a declined card (its hold is released on the server). */
  declined: boolean;
  /** A PIX check is on its way. */
  verifying: boolean;
}

export type CheckoutEvent =
  /** The cart is held: delivery next, or payment when every product is digital. */
  | { type: "cartHeld"; reservation: Reservation; needsDelivery: boolean }
  | { type: "deliveryChosen"; actionId: number; choice: DeliveryChoice }
  /** 'Ir para pagamento': on to the payment when every activity's delivery is complete. */
  | { type: "deliverySubmitted"; complete: boolean }
  /** 'Revisar pedido': entering the review clears a coupon applied before (spec 002 section 4). */
  | { type: "paymentSubmitted" }
  /** 'Voltar': one step back; from the payment to the cart when nothing ships. */
  | { type: "back"; needsDelivery: boolean }
  | { type: "couponOpened" }
  | { type: "couponClosed" }
  | { type: "couponSubmitted" }
  | { type: "couponApplied"; coupon: CouponApplied }
  | { type: "couponRefused"; text: string }
  | { type: "couponRemoved" }
  | { type: "orderPlaced"; order: Order }
  | { type: "orderDeclined"; reasons: string[] }
  | { type: "orderFailed"; messages: string[] }
  /** 'Sim' in the failure dialog: the cart is held again before another way to pay. */
  | { type: "retryChosen" }
  | { type: "cartHeldAgain"; reservation: Reservation }
  /** 'Cancelar' in the failure dialog. */
  | { type: "failureDismissed" }
  /** The hold or the PIX ran out, or could not be renewed: back to 'Meu carrinho'. */
  | { type: "startedOver" }
  | { type: "pixCheckStarted" }
  /** The check's answer: the order when it is paid, else null. */
  | { type: "pixCheckEnded"; paid: Order | null };

export const INITIAL_CHECKOUT: CheckoutState = {
  step: "cart",
  reservation: null,
  choices: {},
  deliveryTried: false,
  coupon: null,
  couponOpen: false,
  couponError: undefined,
  order: null,
  failure: null,
  declined: false,
  verifying: false,
};

function startOver(state: CheckoutState): CheckoutState {
  return { ...state, step: "cart", reservation: null, coupon: null, order: null };
}

function previousStep(step: CheckoutStep, needsDelivery: boolean): CheckoutStep {
  switch (step) {
    case "delivery":
      return "cart";
    case "payment":
      return needsDelivery ? "delivery" : "cart";
    case "review":
      return "payment";
    default:
      return step;
  }
}

export function checkoutReducer(state: CheckoutState, event: CheckoutEvent): CheckoutState {
  switch (event.type) {
    case "cartHeld":
      return {
        ...state,
        reservation: event.reservation,
        deliveryTried: false,
        step: event.needsDelivery ? "delivery" : "payment",
      };
    case "deliveryChosen":
      return { ...state, choices: { ...state.choices, [event.actionId]: event.choice } };
    case "deliverySubmitted":
      return { ...state, deliveryTried: true, step: event.complete ? "payment" : state.step };
    case "paymentSubmitted":
      return { ...state, coupon: null, step: "review" };
    case "back":
      return { ...state, step: previousStep(state.step, event.needsDelivery) };
    case "couponOpened":
      return { ...state, couponOpen: true, couponError: undefined };
    case "couponClosed":
      return { ...state, couponOpen: false };
    case "couponSubmitted":
      return { ...state, couponError: undefined };
    case "couponApplied":
      return { ...state, coupon: event.coupon, couponOpen: false };
    case "couponRefused":
      return { ...state, couponError: event.text };
    case "couponRemoved":
      return { ...state, coupon: null };
    case "orderPlaced":
      return { ...state, order: event.order, step: "placed" };
    case "orderDeclined":
      return { ...state, declined: true, failure: event.reasons };
    case "orderFailed":
      return { ...state, failure: event.messages };
    case "retryChosen":
      return { ...state, failure: null, declined: false, coupon: null };
    case "cartHeldAgain":
      return { ...state, reservation: event.reservation, step: "payment" };
    case "failureDismissed":
      // The declined order's hold is gone: nothing is left to pay for from here.
      return state.declined ? startOver({ ...state, failure: null, declined: false }) : { ...state, failure: null };
    case "startedOver":
      return startOver(state);
    case "pixCheckStarted":
      return { ...state, verifying: true };
    case "pixCheckEnded":
      return { ...state, verifying: false, order: event.paid ?? state.order };
  }
}

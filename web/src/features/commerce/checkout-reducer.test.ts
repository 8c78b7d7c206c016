import { describe, expect, it } from "vitest";
import { EMPTY_DELIVERY } from "@/features/commerce/checkout";
import {
  INITIAL_CHECKOUT,
  checkoutReducer,
  type CheckoutEvent,
  type CheckoutState,
} from "@/features/commerce/checkout-reducer";
import { buildCouponApplied, buildOrder, buildReservation } from "@/features/commerce/testing/commerce-fixtures";

const HOLD = buildReservation("2026-11-28T12:15:00Z");
const NEW_HOLD = buildReservation("2026-11-28T12:30:00Z");
const COUPON = buildCouponApplied();

/** The state after each event in turn, from `from`. */
function after(events: CheckoutEvent[], from: CheckoutState = INITIAL_CHECKOUT): CheckoutState {
  return events.reduce(checkoutReducer, from);
}

/** Held, at the payment step, with a delivery already tried. */
const AT_PAYMENT = after([
  { type: "cartHeld", reservation: HOLD, needsDelivery: true },
  { type: "deliverySubmitted", complete: true },
]);
const AT_REVIEW = after([{ type: "paymentSubmitted" }], AT_PAYMENT);

describe("checkoutReducer", () => {
  it("starts at 'Meu carrinho' with nothing held", () => {
    expect(INITIAL_CHECKOUT).toMatchObject({ step: "cart", reservation: null, coupon: null, order: null, failure: null });
  });

  it("goes from the held cart to the delivery, or to the payment when nothing ships", () => {
    expect(after([{ type: "cartHeld", reservation: HOLD, needsDelivery: true }])).toMatchObject({
      step: "delivery",
      reservation: HOLD,
      deliveryTried: false,
    });
    expect(after([{ type: "cartHeld", reservation: HOLD, needsDelivery: false }]).step).toBe("payment");
  });

  it("keeps each activity's delivery choice and leaves the delivery only when it is complete", () => {
    const choice = { ...EMPTY_DELIVERY, deliveryLocation: "32" };
    const atDelivery = after([
      { type: "cartHeld", reservation: HOLD, needsDelivery: true },
      { type: "deliveryChosen", actionId: 7, choice },
    ]);
    expect(atDelivery.choices).toEqual({ 7: choice });

    const incomplete = checkoutReducer(atDelivery, { type: "deliverySubmitted", complete: false });
    expect(incomplete).toMatchObject({ step: "delivery", deliveryTried: true });
    expect(checkoutReducer(incomplete, { type: "deliverySubmitted", complete: true }).step).toBe("payment");
  });

  it("goes back one step at a time, from the payment to the cart when nothing ships", () => {
    expect(checkoutReducer(AT_REVIEW, { type: "back", needsDelivery: true }).step).toBe("payment");
    expect(checkoutReducer(AT_PAYMENT, { type: "back", needsDelivery: true }).step).toBe("delivery");
    expect(checkoutReducer(AT_PAYMENT, { type: "back", needsDelivery: false }).step).toBe("cart");
    const atDelivery = after([{ type: "cartHeld", reservation: HOLD, needsDelivery: true }]);
    expect(checkoutReducer(atDelivery, { type: "back", needsDelivery: true }).step).toBe("cart");
  });

  it("opens the coupon dialog clear of an old refusal, keeps a refusal, closes once applied", () => {
    const refused = after(
      [{ type: "couponOpened" }, { type: "couponSubmitted" }, { type: "couponRefused", text: "Cupom expirado." }],
      AT_REVIEW,
    );
    expect(refused).toMatchObject({ couponOpen: true, couponError: "Cupom expirado.", coupon: null });

    expect(checkoutReducer(refused, { type: "couponSubmitted" }).couponError).toBeUndefined();
    expect(checkoutReducer(refused, { type: "couponClosed" }).couponOpen).toBe(false);
    expect(after([{ type: "couponClosed" }, { type: "couponOpened" }], refused).couponError).toBeUndefined();

    const applied = checkoutReducer(refused, { type: "couponApplied", coupon: COUPON });
    expect(applied).toMatchObject({ couponOpen: false, coupon: COUPON });
    expect(checkoutReducer(applied, { type: "couponRemoved" }).coupon).toBeNull();
  });

  it("drops the coupon when the review is entered again", () => {
    const withCoupon = checkoutReducer(AT_REVIEW, { type: "couponApplied", coupon: COUPON });
    const again = after([{ type: "back", needsDelivery: true }, { type: "paymentSubmitted" }], withCoupon);
    expect(again).toMatchObject({ step: "review", coupon: null });
  });

  it("shows the placed order", () => {
    const order = buildOrder();
    expect(checkoutReducer(AT_REVIEW, { type: "orderPlaced", order })).toMatchObject({ step: "placed", order });
  });

  it("opens the failure dialog on the review; 'Cancelar' only closes it", () => {
    const failed = checkoutReducer(AT_REVIEW, { type: "orderFailed", messages: ["Estoque insuficiente."] });
    expect(failed).toMatchObject({ step: "review", failure: ["Estoque insuficiente."], declined: false });

    expect(checkoutReducer(failed, { type: "failureDismissed" })).toMatchObject({
      step: "review",
      failure: null,
      reservation: HOLD,
    });
  });

  it("starts over when the failure dialog of a declined card is cancelled", () => {
    const declined = checkoutReducer(AT_REVIEW, { type: "orderDeclined", reasons: ["Cartão recusado."] });
    expect(declined).toMatchObject({ failure: ["Cartão recusado."], declined: true });

    expect(checkoutReducer(declined, { type: "failureDismissed" })).toMatchObject({
      step: "cart",
      failure: null,
      declined: false,
      reservation: null,
      coupon: null,
      order: null,
    });
  });

  it("on 'Sim' clears the failure and the coupon, then pays with the new hold", () => {
    const declined = after(
      [{ type: "couponApplied", coupon: COUPON }, { type: "orderDeclined", reasons: ["Cartão recusado."] }],
      AT_REVIEW,
    );
    const retrying = checkoutReducer(declined, { type: "retryChosen" });
    expect(retrying).toMatchObject({ failure: null, declined: false, coupon: null, step: "review" });

    expect(checkoutReducer(retrying, { type: "cartHeldAgain", reservation: NEW_HOLD })).toMatchObject({
      step: "payment",
      reservation: NEW_HOLD,
    });
  });

  it("starts over from any step, keeping the delivery choices", () => {
    const choice = { ...EMPTY_DELIVERY, deliveryLocation: "32" };
    const placed = after(
      [
        { type: "deliveryChosen", actionId: 7, choice },
        { type: "couponApplied", coupon: COUPON },
        { type: "orderPlaced", order: buildOrder() },
      ],
      AT_REVIEW,
    );
    expect(checkoutReducer(placed, { type: "startedOver" })).toMatchObject({
      step: "cart",
      reservation: null,
      coupon: null,
      order: null,
      choices: { 7: choice },
    });
  });

  it("marks a PIX check while it runs and keeps the order it finds paid", () => {
    const placedOrder = buildOrder({ status: "Aguardando pagamento" });
    const placed = checkoutReducer(AT_REVIEW, { type: "orderPlaced", order: placedOrder });
    const checking = checkoutReducer(placed, { type: "pixCheckStarted" });
    expect(checking.verifying).toBe(true);

    expect(checkoutReducer(checking, { type: "pixCheckEnded", paid: null })).toMatchObject({
      verifying: false,
      order: placedOrder,
    });
    const paidOrder = buildOrder({ status: "Pagamento confirmado" });
    expect(checkoutReducer(checking, { type: "pixCheckEnded", paid: paidOrder })).toMatchObject({
      verifying: false,
      order: paidOrder,
    });
  });
});

// /homepage/carrinho (spec 002 sections 2, 4, 5 and 8): the five steps in one form.
// 'Meu carrinho' (lines and the server's totals preview, nothing held; 'Ir para entrega'
// holds the cart), delivery and pickup (skipped when every product is digital), payment,
// 'Confira seu pedido' with the coupon, then the placed order (for a PIX, the PIX screen
// first). From the delivery on, the reservation's countdown runs to the hold's
// `expires_at`; when it runs out the member starts again at 'Meu carrinho'. The steps are
// components of their own; which one shows is `checkoutReducer`'s; this page holds the
// requests and turns their answers into its events.
import { useEffect, useReducer, useRef, useState, type FormEvent } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { NotFoundPage } from "@/components/not-found-page";
import { useForm } from "@/components/form/use-form";
import { useToast } from "@/components/toasts/use-toast";
import { useCart, useRemoveFromCart, useUpdateCart } from "@/features/commerce/api/cart";
import {
  useApplyCoupon,
  useConfirmCart,
  usePlaceOrder,
  type PlaceOrderBody,
} from "@/features/commerce/api/checkout";
import { useCardTokenizer } from "@/features/commerce/api/card-tokenizer";
import { errorMessages, serverMessage } from "@/features/commerce/api/error-messages";
import { orderQueryOptions } from "@/features/commerce/api/orders";
import {
  checkPayment,
  useCartTotals,
  useInstallments,
  useRemoveCoupon,
  useSandboxPayments,
  useSavedCards,
  useSimulatePixPayment,
} from "@/features/commerce/api/payments";
import {
  asksPaymentMethod,
  deliveryCents,
  groupByAction,
  isPaymentOnly,
  needsDelivery,
  orderCart,
  paymentTitle,
  totalsWithDelivery,
} from "@/features/commerce/checkout";
import { INITIAL_CHECKOUT, checkoutReducer, type CheckoutStep } from "@/features/commerce/checkout-reducer";
import { CartStep } from "@/features/commerce/components/cart-step";
import { Countdown } from "@/features/commerce/components/countdown";
import { CouponDialog } from "@/features/commerce/components/coupon-dialog";
import { DeliveryStep, deliveryComplete } from "@/features/commerce/components/delivery-step";
import { EmptyCart } from "@/features/commerce/components/empty-cart";
import { PaymentFailedDialog } from "@/features/commerce/components/payment-failed-dialog";
import { PaymentStep } from "@/features/commerce/components/payment-step";
import { PlacedStep, awaitsPix } from "@/features/commerce/components/placed-step";
import { ReviewStep } from "@/features/commerce/components/review-step";
import {
  COUPON_APPLIED,
  COUPON_INVALID_TITLE,
  COUPON_NOT_APPLIED_TEXT,
  ORDER_SUCCESS_TITLE,
  PAID_STATUS,
  PIX_EXPIRED,
  PIX_UNCONFIRMED,
  RESERVATION_EXPIRED,
} from "@/features/commerce/messages";
import {
  EMPTY_PAYMENT_FORM,
  NEW_CARD,
  paymentFormRules,
  paymentToApi,
} from "@/features/commerce/payment-form";
import { useSession } from "@/features/session";
import { useStation } from "@/features/stations";
import { useWalletBalance } from "@/features/wallet";
import { ApiError } from "@/lib/api-client";
import type { Order, OrderTotals } from "@/types/api";
import "./shop-screens.css";

export const STEP_TITLES = {
  cart: "Meu carrinho",
  delivery: "Informações de entrega e retirada",
  review: "Confira seu pedido",
  pix: "Finalize o pagamento",
} as const;
export const RESERVATION_LABEL = "Tempo de reserva";

/** How often the PIX screen reads the order again, so a payment shows without a reload. */
export const PIX_POLL_MS = 3000;

/** Why a card was declined: the failed parts' reasons, else the order's status. */
function declineReasons(order: Order): string[] {
  const reasons = order.payments
    .filter((payment) => payment.status === "failed" && payment.failure_reason)
    .map((payment) => payment.failure_reason as string);
  return reasons.length > 0 ? reasons : [order.status];
}

/** The heading of each step; the payment's depends on what the wallet pays. */
function stepTitle(
  step: CheckoutStep,
  totals: OrderTotals | null,
  walletCents: number,
  paymentOnly: boolean,
  order: Order | null,
): string {
  switch (step) {
    case "cart":
      return STEP_TITLES.cart;
    case "delivery":
      return STEP_TITLES.delivery;
    case "payment":
      return totals ? paymentTitle(totals, walletCents, paymentOnly) : "";
    case "review":
      return STEP_TITLES.review;
    case "placed":
      return order && awaitsPix(order) ? STEP_TITLES.pix : ORDER_SUCCESS_TITLE;
  }
}

export function CartPage() {
  const station = useStation();
  const userId = useSession()?.user.id ?? 0;
  const showToast = useToast();
  const queryClient = useQueryClient();
  const cart = useCart();
  const balance = useWalletBalance();
  const updateCart = useUpdateCart();
  const removeFromCart = useRemoveFromCart();
  const confirmCart = useConfirmCart();
  const applyCoupon = useApplyCoupon();
  const placeOrder = usePlaceOrder();
  const removeCoupon = useRemoveCoupon();
  const simulatePix = useSimulatePixPayment();
  const sandbox = useSandboxPayments();
  const tokenize = useCardTokenizer();

  const [state, dispatch] = useReducer(checkoutReducer, INITIAL_CHECKOUT);
  const { step, reservation, choices, coupon, order: placedOrder } = state;

  const lines = cart.data ?? [];
  const groups = groupByAction(lines);
  const paymentOnly = isPaymentOnly(groups);
  const walletCents = balance.data?.points_cents ?? reservation?.totals.wallet_value ?? 0;
  // 'Meu carrinho' shows the server's preview of the cart (nothing held); later steps, the hold's.
  const signature = lines.map((line) => `${line.product_id}x${line.quantity}`).join(",");
  const preview = useCartTotals(signature, step === "cart");
  const held = step === "cart" ? (preview.data ?? null) : (coupon?.totals.after ?? reservation?.totals ?? null);
  const totals = held ? totalsWithDelivery(held, deliveryCents(groups, choices), walletCents, paymentOnly) : null;
  const asksMethod = totals !== null && asksPaymentMethod(totals, paymentOnly);
  // Asked once the payment step may offer a card. The card pays the whole order, so the
  // server splits it only when every activity allows installments (docs/decisions.md).
  const offersCard = asksMethod && (step === "payment" || step === "review" || step === "placed");
  const savedCards = useSavedCards(offersCard);
  const splittable = groups.every((group) => group.action.allow_installments);
  const installmentAction = splittable ? (groups[0]?.action.id ?? null) : null;
  const installments = useInstallments(installmentAction, totals?.credit_card_value ?? 0, offersCard);
  const installmentOptions = installments.data ?? [];
  const payment = useForm(
    EMPTY_PAYMENT_FORM,
    asksMethod ? paymentFormRules({ installmentsAsked: installmentOptions.length > 1 }) : {},
  );
  // A saved card is the default when one exists (spec 002 section 4). The method may be
  // chosen before the cards arrive: when they do, a new card nothing was typed into yet
  // gives way to the first saved one (React's "adjust state when data changes", no effect).
  const [cardsSeen, setCardsSeen] = useState(savedCards.data);
  if (savedCards.data !== cardsSeen) {
    setCardsSeen(savedCards.data);
    const first = savedCards.data?.[0];
    const untouchedNewCard =
      payment.values.type === "credit_card" && payment.values.selected_card === NEW_CARD && payment.values.number === "";
    if (cardsSeen === undefined && first && untouchedNewCard) payment.setValues({ selected_card: String(first.id) });
  }

  // While the PIX screen is open the order is read again every few seconds, so a payment
  // (the bank's webhook, or the sandbox's simulated one) shows without reloading.
  const pixOpen = step === "placed" && placedOrder !== null && awaitsPix(placedOrder);
  const polled = useQuery({
    ...orderQueryOptions(userId, placedOrder?.id ?? 0),
    enabled: pixOpen,
    refetchInterval: (query) => (query.state.data?.status === PAID_STATUS ? false : PIX_POLL_MS),
  });
  const paidOrder = pixOpen && polled.data?.status === PAID_STATUS ? polled.data : null;
  const order = paidOrder ?? placedOrder;

  const heading = useRef<HTMLHeadingElement>(null);
  const shownStep = useRef(step);
  useEffect(() => {
    if (shownStep.current !== step) heading.current?.focus();
    shownStep.current = step;
  }, [step]);

  if (!station.checkout_access || station.no_cpf) return <NotFoundPage />;

  const startOver = () => {
    dispatch({ type: "startedOver" });
    void cart.refetch();
  };

  const onReservationExpired = () => {
    showToast(RESERVATION_EXPIRED);
    startOver();
  };

  const holdCart = () => {
    confirmCart.mutate(undefined, {
      onSuccess: (reservation) => dispatch({ type: "cartHeld", reservation, needsDelivery: needsDelivery(groups) }),
    });
  };

  const shipping = groups.filter((group) => !group.action.digital_product);
  const goBack = () => dispatch({ type: "back", needsDelivery: needsDelivery(groups) });

  const dropCoupon = () => {
    if (!coupon) return;
    dispatch({ type: "couponRemoved" });
    // The use claimed into the hold goes back; the hold's totals are the reservation's again.
    removeCoupon.mutate();
  };

  const goToReview = payment.handleSubmit(() => {
    if (!asksMethod) payment.setValues(EMPTY_PAYMENT_FORM);
    // Entering the review clears a coupon applied before (spec 002 section 4).
    if (coupon) removeCoupon.mutate();
    dispatch({ type: "paymentSubmitted" });
  });

  const method = asksMethod && payment.values.type !== "" ? payment.values.type : null;

  /** The order as sent: a new card goes to the tokeniser first, and only its token goes with it. */
  const orderBody = async (): Promise<PlaceOrderBody> => {
    const newCard = method === "credit_card" && payment.values.selected_card === NEW_CARD;
    const token = newCard ? await tokenize(payment.values) : null;
    return {
      user_id: userId,
      checkout_id: reservation?.checkout_id ?? null,
      cart: orderCart(groups, choices),
      isOnlyPayment: paymentOnly,
      payment: method ? paymentToApi(payment.values, token) : null,
      ...(coupon ? { coupon_code: coupon.coupon.code } : {}),
    };
  };

  const submitOrder = () => {
    placeOrder.mutate(orderBody, {
      onSuccess: (placed) => {
        if (placed.status_code === "declined") dispatch({ type: "orderDeclined", reasons: declineReasons(placed) });
        else dispatch({ type: "orderPlaced", order: placed });
      },
      onError: (error) => {
        const messages = errorMessages(error);
        // The hold ended before the order: the reservation's own toast and step 0, as the countdown does.
        if (messages.includes(RESERVATION_EXPIRED.text)) onReservationExpired();
        else dispatch({ type: "orderFailed", messages });
      },
    });
  };

  const submitCoupon = (code: string) => {
    dispatch({ type: "couponSubmitted" });
    applyCoupon.mutate(
      { code, cart: orderCart(groups, choices) },
      {
        onSuccess: (applied) => {
          dispatch({ type: "couponApplied", coupon: applied });
          showToast(COUPON_APPLIED);
        },
        onError: (error) => {
          const text = serverMessage(error) ?? COUPON_NOT_APPLIED_TEXT;
          dispatch({ type: "couponRefused", text });
          showToast({ title: COUPON_INVALID_TITLE, text });
        },
      },
    );
  };

  const verifyPix = async (placed: Order) => {
    dispatch({ type: "pixCheckStarted" });
    let paid: Order | null = null;
    try {
      const current = await checkPayment(placed.id);
      queryClient.setQueryData(orderQueryOptions(userId, placed.id).queryKey, current);
      if (current.status === PAID_STATUS) paid = current;
      else showToast(PIX_UNCONFIRMED);
    } catch (error) {
      // Too many checks (429): the server says how long to wait, under the same title.
      const text = error instanceof ApiError && error.status === 429 ? serverMessage(error) : null;
      showToast(text === null ? PIX_UNCONFIRMED : { ...PIX_UNCONFIRMED, text });
    } finally {
      dispatch({ type: "pixCheckEnded", paid });
    }
  };

  const onSubmit = (event: FormEvent) => {
    if (step === "payment") {
      goToReview(event);
      return;
    }
    event.preventDefault();
    if (step === "cart") holdCart();
    else if (step === "delivery") dispatch({ type: "deliverySubmitted", complete: deliveryComplete(shipping, choices) });
    else if (step === "review") submitOrder();
  };

  if (step === "cart" && cart.isPending) {
    return (
      <section className="shop-screen cart-page">
        <h1 className="shop-screen__title">{STEP_TITLES.cart}</h1>
        <p className="shop-screen__loading" aria-busy="true">
          Carregando carrinho…
        </p>
      </section>
    );
  }
  if (step === "cart" && cart.isError) {
    return (
      <section className="shop-screen cart-page">
        <h1 className="shop-screen__title">{STEP_TITLES.cart}</h1>
        <div className="shop-screen__error">
          <p>Não foi possível carregar o seu carrinho.</p>
          <button type="button" className="button button--secondary" onClick={() => void cart.refetch()}>
            Tentar novamente
          </button>
        </div>
      </section>
    );
  }
  if (step === "cart" && lines.length === 0) return <EmptyCart title={STEP_TITLES.cart} />;

  const countdown =
    reservation && (step === "delivery" || step === "payment" || step === "review") ? (
      <Countdown expiresAt={reservation.expires_at} onExpire={onReservationExpired} label={RESERVATION_LABEL} />
    ) : null;

  return (
    <section className="shop-screen cart-page">
      <h1 ref={heading} tabIndex={-1} className="shop-screen__title">
        {stepTitle(step, totals, walletCents, paymentOnly, order)}
      </h1>
      <form className="cart-form" noValidate onSubmit={onSubmit}>
        {step === "cart" && (
          <CartStep
            lines={lines}
            totals={totals}
            linesBusy={updateCart.isPending || removeFromCart.isPending}
            holding={confirmCart.isPending}
            onQuantityChange={(id, quantity) => updateCart.mutate([{ id, quantity }])}
            onRemove={(id) => removeFromCart.mutate(id)}
          />
        )}
        {step === "delivery" && (
          <DeliveryStep
            shipping={shipping}
            choices={choices}
            onChoose={(actionId, choice) => dispatch({ type: "deliveryChosen", actionId, choice })}
            tried={state.deliveryTried}
            totals={totals}
            countdown={countdown}
            onBack={goBack}
          />
        )}
        {step === "payment" && totals && (
          <PaymentStep
            totals={totals}
            walletBalanceCents={walletCents}
            paymentOnly={paymentOnly}
            asksMethod={asksMethod}
            form={payment}
            savedCards={savedCards.data}
            installments={installmentOptions}
            countdown={countdown}
            onBack={goBack}
          />
        )}
        {step === "review" && totals && (
          <ReviewStep
            groups={groups}
            choices={choices}
            totals={totals}
            method={method}
            coupon={coupon}
            onOpenCoupon={() => dispatch({ type: "couponOpened" })}
            onRemoveCoupon={dropCoupon}
            countdown={countdown}
            placing={placeOrder.isPending}
            onBack={goBack}
          />
        )}
      </form>
      {step === "placed" && order && (
        <PlacedStep
          order={order}
          verifying={state.verifying}
          onVerify={() => void verifyPix(order)}
          onPixExpired={() => {
            showToast(PIX_EXPIRED);
            startOver();
          }}
          sandbox={sandbox}
          simulating={simulatePix.isPending}
          onSimulate={(chargeId) => simulatePix.mutate(chargeId)}
        />
      )}
      {state.couponOpen && (
        <CouponDialog
          applying={applyCoupon.isPending}
          error={state.couponError}
          onApply={submitCoupon}
          onClose={() => dispatch({ type: "couponClosed" })}
        />
      )}
      {state.failure && (
        <PaymentFailedDialog
          messages={state.failure}
          onRetry={() => {
            // A refused order may have ended its hold (a declined card releases it on the
            // server): trying another way to pay holds the cart again first.
            dispatch({ type: "retryChosen" });
            confirmCart.mutate(undefined, {
              onSuccess: (reservation) => dispatch({ type: "cartHeldAgain", reservation }),
              onError: startOver,
            });
          }}
          onCancel={() => {
            // Cancelling after a declined card starts over: read the cart again too.
            if (state.declined) void cart.refetch();
            dispatch({ type: "failureDismissed" });
          }}
        />
      )}
    </section>
  );
}

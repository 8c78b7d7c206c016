// /homepage/carrinho (spec 002 sections 2, 4, 5 and 8): the five steps in one form.
// 0 'Meu carrinho' (lines and the server's totals preview, nothing held; 'Ir para entrega'
// holds the cart), 1 delivery and pickup (skipped when every product is digital),
// 2 payment, 3 'Confira seu pedido' with the coupon, 4 'Pedido realizado com sucesso!'
// (for a PIX, the PIX screen first). From step 1 on, the reservation's countdown runs to
// the hold's `expires_at`; when it runs out the member starts again at step 0.
import { useEffect, useRef, useState, type FormEvent } from "react";
import { Link } from "react-router";
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
  EMPTY_DELIVERY,
  asksPaymentMethod,
  cartTotals,
  deliveryCents,
  groupByAction,
  isPaymentOnly,
  needsDelivery,
  orderCart,
  paymentTitle,
  totalsWithDelivery,
  type DeliveryChoice,
} from "@/features/commerce/checkout";
import { CartLine } from "@/features/commerce/components/cart-line";
import { Countdown } from "@/features/commerce/components/countdown";
import { CouponDialog } from "@/features/commerce/components/coupon-dialog";
import { DeliveryFields, deliveryErrors } from "@/features/commerce/components/delivery-step";
import { EmptyCart } from "@/features/commerce/components/empty-cart";
import { OrderSummary } from "@/features/commerce/components/order-summary";
import { PaymentFailedDialog } from "@/features/commerce/components/payment-failed-dialog";
import { PaymentStep } from "@/features/commerce/components/payment-step";
import { PixPanel } from "@/features/commerce/components/pix-panel";
import { ReviewStep } from "@/features/commerce/components/review-step";
import { TotalsBox } from "@/features/commerce/components/totals-box";
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
import { orderPath } from "@/features/commerce/paths";
import { useSession } from "@/features/session";
import { useStation } from "@/features/stations";
import { useWalletBalance } from "@/features/wallet";
import { ApiError } from "@/lib/api-client";
import type { CouponApplied, Order, Reservation } from "@/types/api";
import "./shop-screens.css";

type Step = 0 | 1 | 2 | 3 | 4;

export const STEP_TITLES = {
  cart: "Meu carrinho",
  delivery: "Informações de entrega e retirada",
  review: "Confira seu pedido",
  pix: "Finalize o pagamento",
} as const;
export const RESERVATION_LABEL = "Tempo de reserva";

/** A placed order still waiting for its PIX: the PIX screen comes before the success step. */
function awaitsPix(order: Order): boolean {
  const charge = order.gateway_charge;
  return (
    order.status_code === "pending" &&
    charge?.payment_method === "pix" &&
    Boolean(charge.pix_qr_code) &&
    Boolean(charge.expiration_date)
  );
}

/** How often the PIX screen reads the order again, so a payment shows without a reload. */
export const PIX_POLL_MS = 3000;
export const SIMULATE_PIX_TEXT = "Simular pagamento";

/** Why a card was declined: the failed parts' reasons, else the order's status. */
function declineReasons(order: Order): string[] {
  const reasons = order.payments
    .filter((payment) => payment.status === "failed" && payment.failure_reason)
    .map((payment) => payment.failure_reason as string);
  return reasons.length > 0 ? reasons : [order.status];
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

  const [step, setStep] = useState<Step>(0);
  const [reservation, setReservation] = useState<Reservation | null>(null);
  const [choices, setChoices] = useState<Record<number, DeliveryChoice>>({});
  const [deliveryTried, setDeliveryTried] = useState(false);
  const [coupon, setCoupon] = useState<CouponApplied | null>(null);
  const [couponOpen, setCouponOpen] = useState(false);
  const [couponError, setCouponError] = useState<string | undefined>(undefined);
  const [placedOrder, setOrder] = useState<Order | null>(null);
  const [failure, setFailure] = useState<string[] | null>(null);
  // The order answered with a declined card (its hold is released on the server).
  const [declined, setDeclined] = useState(false);
  const [verifying, setVerifying] = useState(false);

  const lines = cart.data ?? [];
  const groups = groupByAction(lines);
  const paymentOnly = isPaymentOnly(groups);
  const walletCents = balance.data?.points_cents ?? reservation?.totals.wallet_value ?? 0;
  // Step 0 shows the server's preview of the cart (nothing held); from step 1 on, the hold's.
  const signature = lines.map((line) => `${line.product_id}x${line.quantity}`).join(",");
  const preview = useCartTotals(signature, step === 0);
  const held = step === 0 ? (preview.data ?? null) : (coupon?.totals.after ?? reservation?.totals ?? null);
  const totals = held ? totalsWithDelivery(held, deliveryCents(groups, choices), walletCents, paymentOnly) : null;
  const asksMethod = totals !== null && asksPaymentMethod(totals, paymentOnly);
  // Asked once the payment step may offer a card. The card pays the whole order, so the
  // server splits it only when every activity allows installments (docs/decisions.md).
  const offersCard = asksMethod && step >= 2;
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
  const pixOpen = step === 4 && placedOrder !== null && awaitsPix(placedOrder);
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
    setStep(0);
    setReservation(null);
    setCoupon(null);
    setOrder(null);
    void cart.refetch();
  };

  const onReservationExpired = () => {
    showToast(RESERVATION_EXPIRED);
    startOver();
  };

  const goToDelivery = () => {
    confirmCart.mutate(undefined, {
      onSuccess: (hold) => {
        setReservation(hold);
        setDeliveryTried(false);
        setStep(needsDelivery(groups) ? 1 : 2);
      },
    });
  };

  const choiceOf = (actionId: number) => choices[actionId] ?? EMPTY_DELIVERY;
  const shipping = groups.filter((group) => !group.action.digital_product);

  const goToPayment = () => {
    setDeliveryTried(true);
    const complete = shipping.every((group) => Object.keys(deliveryErrors(group, choices[group.action.id])).length === 0);
    if (complete) setStep(2);
  };

  const dropCoupon = () => {
    if (!coupon) return;
    setCoupon(null);
    // The use claimed into the hold goes back; the hold's totals are the reservation's again.
    removeCoupon.mutate();
  };

  const goToReview = payment.handleSubmit(() => {
    if (!asksMethod) payment.setValues(EMPTY_PAYMENT_FORM);
    // Entering the review clears a coupon applied before (spec 002 section 4).
    dropCoupon();
    setStep(3);
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
        if (placed.status_code === "declined") {
          setDeclined(true);
          setFailure(declineReasons(placed));
          return;
        }
        setOrder(placed);
        setStep(4);
      },
      onError: (error) => {
        const messages = errorMessages(error);
        // The hold ended before the order: the reservation's own toast and step 0, as the countdown does.
        if (messages.includes(RESERVATION_EXPIRED.text)) onReservationExpired();
        else setFailure(messages);
      },
    });
  };

  const submitCoupon = (code: string) => {
    setCouponError(undefined);
    applyCoupon.mutate(
      { code, cart: orderCart(groups, choices) },
      {
        onSuccess: (applied) => {
          setCoupon(applied);
          setCouponOpen(false);
          showToast(COUPON_APPLIED);
        },
        onError: (error) => {
          const text = serverMessage(error) ?? COUPON_NOT_APPLIED_TEXT;
          setCouponError(text);
          showToast({ title: COUPON_INVALID_TITLE, text });
        },
      },
    );
  };

  const verifyPix = async (placed: Order) => {
    setVerifying(true);
    try {
      const current = await checkPayment(placed.id);
      queryClient.setQueryData(orderQueryOptions(userId, placed.id).queryKey, current);
      if (current.status === PAID_STATUS) setOrder(current);
      else showToast(PIX_UNCONFIRMED);
    } catch (error) {
      // Too many checks (429): the server says how long to wait, under the same title.
      const text = error instanceof ApiError && error.status === 429 ? serverMessage(error) : null;
      showToast(text === null ? PIX_UNCONFIRMED : { ...PIX_UNCONFIRMED, text });
    } finally {
      setVerifying(false);
    }
  };

  const onSubmit = (event: FormEvent) => {
    if (step === 2) {
      goToReview(event);
      return;
    }
    event.preventDefault();
    if (step === 0) goToDelivery();
    else if (step === 1) goToPayment();
    else if (step === 3) void submitOrder();
  };

  if (step === 0 && cart.isPending) {
    return (
      <section className="shop-screen cart-page">
        <h1 className="shop-screen__title">{STEP_TITLES.cart}</h1>
        <p className="shop-screen__loading" aria-busy="true">
          Carregando carrinho…
        </p>
      </section>
    );
  }
  if (step === 0 && cart.isError) {
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
  if (step === 0 && lines.length === 0) return <EmptyCart />;

  const title =
    step === 0
      ? STEP_TITLES.cart
      : step === 1
        ? STEP_TITLES.delivery
        : step === 2
          ? totals
            ? paymentTitle(totals, walletCents, paymentOnly)
            : ""
          : step === 3
            ? STEP_TITLES.review
            : order && awaitsPix(order)
              ? STEP_TITLES.pix
              : ORDER_SUCCESS_TITLE;

  const busyLines = updateCart.isPending || removeFromCart.isPending;
  const countdown =
    reservation && step >= 1 && step <= 3 ? (
      <Countdown expiresAt={reservation.expires_at} onExpire={onReservationExpired} label={RESERVATION_LABEL} />
    ) : null;

  return (
    <section className="shop-screen cart-page">
      <h1 ref={heading} tabIndex={-1} className="shop-screen__title">
        {title}
      </h1>
      <form className="cart-form" noValidate onSubmit={onSubmit}>
        {step === 0 && (
          <>
            <ul className="cart-lines">
              {lines.map((line) => (
                <CartLine
                  key={line.product_id}
                  product={line.product}
                  quantity={line.quantity}
                  maxQuantity={Math.max(line.product.limit, line.quantity)}
                  busy={busyLines}
                  onQuantityChange={(quantity) => updateCart.mutate([{ id: line.product_id, quantity }])}
                  onRemove={() => removeFromCart.mutate(line.product_id)}
                />
              ))}
            </ul>
            {totals && <TotalsBox totals={cartTotals(totals)} />}
            <div className="cart-form__actions">
              <button
                type="submit"
                className="button button--primary"
                aria-disabled={busyLines || confirmCart.isPending}
                disabled={busyLines}
              >
                Ir para entrega
              </button>
            </div>
          </>
        )}
        {step === 1 && (
          <>
            {shipping.map((group) => (
              <DeliveryFields
                key={group.action.id}
                group={group}
                choice={choiceOf(group.action.id)}
                onChange={(choice) => setChoices((current) => ({ ...current, [group.action.id]: choice }))}
                errors={deliveryTried ? deliveryErrors(group, choices[group.action.id]) : {}}
              />
            ))}
            {totals && <TotalsBox totals={cartTotals(totals)}>{countdown}</TotalsBox>}
            <div className="cart-form__actions">
              <button type="button" className="button button--secondary" onClick={() => setStep(0)}>
                Voltar
              </button>
              <button type="submit" className="button button--primary">
                Ir para pagamento
              </button>
            </div>
          </>
        )}
        {step === 2 && totals && (
          <>
            <PaymentStep
              totals={totals}
              walletBalanceCents={walletCents}
              paymentOnly={paymentOnly}
              asksMethod={asksMethod}
              form={payment}
              savedCards={savedCards.data}
              canSaveCard={sandbox}
              installments={installmentOptions}
            />
            {countdown}
            <div className="cart-form__actions">
              <button
                type="button"
                className="button button--secondary"
                onClick={() => setStep(needsDelivery(groups) ? 1 : 0)}
              >
                Voltar
              </button>
              <button type="submit" className="button button--primary">
                Revisar pedido
              </button>
            </div>
          </>
        )}
        {step === 3 && totals && (
          <>
            <ReviewStep
              groups={groups}
              choices={choices}
              totals={totals}
              method={method}
              coupon={coupon}
              onOpenCoupon={() => {
                setCouponError(undefined);
                setCouponOpen(true);
              }}
              onRemoveCoupon={dropCoupon}
            />
            {countdown}
            <div className="cart-form__actions">
              <button type="button" className="button button--secondary" onClick={() => setStep(2)}>
                Voltar
              </button>
              <button
                type="submit"
                className="button button--primary"
                aria-disabled={placeOrder.isPending}
                disabled={placeOrder.isPending}
              >
                {method === "pix" ? "Gerar código para pagamento" : "Efetuar pagamento"}
              </button>
            </div>
          </>
        )}
      </form>
      {step === 4 && order && awaitsPix(order) && order.gateway_charge?.pix_qr_code && order.gateway_charge.expiration_date && (
        <PixPanel
          amountCents={order.credit_card_value}
          code={order.gateway_charge.pix_qr_code}
          expiresAt={order.gateway_charge.expiration_date}
          verifying={verifying}
          onVerify={() => void verifyPix(order)}
          onExpire={() => {
            showToast(PIX_EXPIRED);
            startOver();
          }}
        >
          {sandbox && order.gateway_charge.charge_id && (
            <button
              type="button"
              className="button button--secondary"
              aria-disabled={simulatePix.isPending}
              onClick={() => {
                const chargeId = order.gateway_charge?.charge_id;
                if (chargeId && !simulatePix.isPending) simulatePix.mutate(chargeId);
              }}
            >
              {SIMULATE_PIX_TEXT}
            </button>
          )}
        </PixPanel>
      )}
      {step === 4 && order && !awaitsPix(order) && (
        <>
          <OrderSummary order={order} receiptLinks />
          <Link className="button button--primary" to={orderPath(order.id)}>
            Ver comprovante do pedido e Gerar voucher
          </Link>
        </>
      )}
      {couponOpen && (
        <CouponDialog
          applying={applyCoupon.isPending}
          error={couponError}
          onApply={submitCoupon}
          onClose={() => setCouponOpen(false)}
        />
      )}
      {failure && (
        <PaymentFailedDialog
          messages={failure}
          onRetry={() => {
            // A refused order may have ended its hold (a declined card releases it on the
            // server): trying another way to pay holds the cart again first.
            setFailure(null);
            setDeclined(false);
            setCoupon(null);
            confirmCart.mutate(undefined, {
              onSuccess: (hold) => {
                setReservation(hold);
                setStep(2);
              },
              onError: startOver,
            });
          }}
          onCancel={() => {
            setFailure(null);
            // The declined order's hold is gone: nothing is left to pay for from here.
            if (declined) {
              setDeclined(false);
              startOver();
            }
          }}
        />
      )}
    </section>
  );
}

// Step 3 of the cart, 'Confira seu pedido' (spec 002 section 2): the products, each
// activity's delivery or pickup with its fee, the payment summary, and the coupon; then
// 'Voltar' and the button that places the order. The cart stands in for type 3's 'Pagar'
// dialog (docs/decisions.md, "Type 3 and 4 payment"), and its button takes that dialog's
// loading labels while the order is on its way: 'Inscrevendo...' when the cart holds only
// presential courses (type 4: the member signs up), else 'Pagando' (PIX keeps its label:
// it generates a code, nothing is paid yet).
import type { ReactNode } from "react";
import { chosenLocation, type CartGroup, type DeliveryChoice } from "@/features/commerce/checkout";
import { unitPriceCents } from "@/features/commerce/components/cart-line";
import { formatBrl } from "@/features/commerce/money";
import type { PaymentType } from "@/features/commerce/payment-form";
import type { CouponApplied, OrderTotals } from "@/types/api";

export const INSERT_COUPON_TEXT = "Inserir cupom de desconto";
export const PAYING_TEXT = "Pagando";
export const SIGNING_UP_TEXT = "Inscrevendo...";
/** Type 4: a presential course, which a member signs up to. */
export const PRESENTIAL_COURSE_TYPE = 4;

/** The place-order button's label, `placing` while the order is on its way. */
export function placeOrderLabel(groups: readonly CartGroup[], method: PaymentType | null, placing: boolean): string {
  const idle = method === "pix" ? "Gerar código para pagamento" : "Efetuar pagamento";
  if (!placing || method === "pix") return idle;
  const courses = groups.length > 0 && groups.every((group) => group.action.type_id === PRESENTIAL_COURSE_TYPE);
  return courses ? SIGNING_UP_TEXT : PAYING_TEXT;
}

function DeliverySummary({ group, choice }: { group: CartGroup; choice: DeliveryChoice | undefined }) {
  if (group.action.digital_product) return <p>Produto digital: sem entrega.</p>;
  const location = chosenLocation(group.action, choice);
  if (!location) return null;
  const place = location.delivery
    ? [choice?.address, choice?.number, choice?.reference].filter(Boolean).join(", ")
    : [location.street, location.street_number].filter(Boolean).join(", ");
  return (
    <p>
      {location.delivery ? "Entrega" : "Retirada"}: {location.name}
      {place ? ` — ${place}` : ""}. Taxa de entrega: {formatBrl(location.price)}
    </p>
  );
}

interface ReviewStepProps {
  groups: CartGroup[];
  choices: Readonly<Record<number, DeliveryChoice>>;
  totals: OrderTotals;
  method: PaymentType | null;
  coupon: CouponApplied | null;
  onOpenCoupon: () => void;
  onRemoveCoupon: () => void;
  /** The reservation's countdown, under the review. */
  countdown?: ReactNode;
  /** The order is on its way. */
  placing: boolean;
  onBack: () => void;
}

export function ReviewStep({
  groups,
  choices,
  totals,
  method,
  coupon,
  onOpenCoupon,
  onRemoveCoupon,
  countdown,
  placing,
  onBack,
}: ReviewStepProps) {
  return (
    <>
      <div className="cart-review">
        {groups.map((group) => (
          <section key={group.action.id} className="cart-review__group" aria-label={group.action.name}>
            <h2 className="cart-review__action">{group.action.name}</h2>
            <ul className="cart-review__lines">
              {group.lines.map((line) => (
                <li key={line.product_id}>
                  {line.quantity} x {line.product.name} — {formatBrl(unitPriceCents(line.product) * line.quantity)}
                </li>
              ))}
            </ul>
            <DeliverySummary group={group} choice={choices[group.action.id]} />
          </section>
        ))}
        <section className="cart-review__payment" aria-label="Pagamento">
          <h2>Pagamento</h2>
          <dl className="cart-totals">
            {totals.wallet_value > 0 && (
              <>
                <dt>Saldo</dt>
                <dd>{formatBrl(totals.wallet_value)}</dd>
              </>
            )}
            {totals.credit_card_value > 0 && method && (
              <>
                <dt>{method === "pix" ? "PIX" : "Cartão de crédito"}</dt>
                <dd>{formatBrl(totals.credit_card_value)}</dd>
              </>
            )}
            <dt className="cart-totals__subtotal">Total</dt>
            <dd className="cart-totals__subtotal">{formatBrl(totals.total_final_value)}</dd>
          </dl>
          {coupon ? (
            <p className="cart-review__coupon">
              Cupom {coupon.coupon.code}: -{formatBrl(coupon.coupon.discountValue)}{" "}
              <button type="button" className="button button--secondary" onClick={onRemoveCoupon}>
                Remover
              </button>
            </p>
          ) : (
            <button type="button" className="button button--secondary" onClick={onOpenCoupon}>
              {INSERT_COUPON_TEXT}
            </button>
          )}
        </section>
      </div>
      {countdown}
      <div className="cart-form__actions">
        <button type="button" className="button button--secondary" onClick={onBack}>
          Voltar
        </button>
        <button type="submit" className="button button--primary" aria-disabled={placing} disabled={placing}>
          {placeOrderLabel(groups, method, placing)}
        </button>
      </div>
    </>
  );
}

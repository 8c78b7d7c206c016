// Step 3 of the cart, 'Confira seu pedido' (spec 002 section 2): the products, each
// activity's delivery or pickup with its fee, the payment summary, and the coupon; then
// 'Voltar' and the button that places the order.
import type { ReactNode } from "react";
import { chosenLocation, type CartGroup, type DeliveryChoice } from "@/features/commerce/checkout";
import { unitPriceCents } from "@/features/commerce/components/cart-line";
import { formatBrl } from "@/features/commerce/money";
import type { PaymentType } from "@/features/commerce/payment-form";
import type { CouponApplied, OrderTotals } from "@/types/api";

export const INSERT_COUPON_TEXT = "Inserir cupom de desconto";

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
          {method === "pix" ? "Gerar código para pagamento" : "Efetuar pagamento"}
        </button>
      </div>
    </>
  );
}

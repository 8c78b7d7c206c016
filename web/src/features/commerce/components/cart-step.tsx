// Step 'Meu carrinho' of the cart (spec 002 section 2): the lines, each with its quantity
// and 'Remover', the server's totals preview (nothing is held yet) and 'Ir para entrega',
// which submits the page's form to hold the cart.
import { cartTotals } from "@/features/commerce/checkout";
import { CartLine } from "@/features/commerce/components/cart-line";
import { TotalsBox } from "@/features/commerce/components/totals-box";
import type { CartLineItem, OrderTotals } from "@/types/api";

interface CartStepProps {
  lines: readonly CartLineItem[];
  totals: OrderTotals | null;
  /** A quantity change or a removal is on its way. */
  linesBusy: boolean;
  /** The hold is on its way. */
  holding: boolean;
  onQuantityChange: (productId: number, quantity: number) => void;
  onRemove: (productId: number) => void;
}

export function CartStep({ lines, totals, linesBusy, holding, onQuantityChange, onRemove }: CartStepProps) {
  return (
    <>
      <ul className="cart-lines">
        {lines.map((line) => (
          <CartLine
            key={line.product_id}
            product={line.product}
            quantity={line.quantity}
            maxQuantity={Math.max(line.product.limit, line.quantity)}
            busy={linesBusy}
            onQuantityChange={(quantity) => onQuantityChange(line.product_id, quantity)}
            onRemove={() => onRemove(line.product_id)}
          />
        ))}
      </ul>
      {totals && <TotalsBox totals={cartTotals(totals)} />}
      <div className="cart-form__actions">
        <button type="submit" className="button button--primary" aria-disabled={linesBusy || holding} disabled={linesBusy}>
          Ir para entrega
        </button>
      </div>
    </>
  );
}

// A product line of the cart (spec 002 section 2, step 0): picture, name, price, a quantity
// stepper and delete. The stepper never goes below 1 (removing is the delete button) nor
// above the limit the server gives for this member and product (spec 002 section 5,
// "Quantity stepper": the lower of the per-member limit left and the stock left).
import { formatBrl } from "@/features/commerce/money";
import "./commerce.css";

/** The product of a cart line as the cart answers it; amounts in centavos. */
export interface CartLineProduct {
  id: number;
  name: string;
  image: string | null;
  value: number;
  discount_value: number;
}

/** What one unit costs: the value less its discount when there is one (spec 002 section 9). */
export function unitPriceCents(product: Pick<CartLineProduct, "value" | "discount_value">): number {
  return product.discount_value > 0 ? product.value - product.discount_value : product.value;
}

interface CartLineProps {
  product: CartLineProduct;
  quantity: number;
  /** The most this member may have of the product now, as the server computed it. */
  maxQuantity: number;
  onQuantityChange: (quantity: number) => void;
  onRemove: () => void;
  /** A change of this line is on its way: the controls wait. */
  busy?: boolean;
}

export function CartLine({ product, quantity, maxQuantity, onQuantityChange, onRemove, busy = false }: CartLineProps) {
  const unitPrice = unitPriceCents(product);
  const discounted = unitPrice !== product.value;
  const canDecrease = !busy && quantity > 1;
  const canIncrease = !busy && quantity < maxQuantity;

  return (
    <li className="cart-line">
      {product.image ? (
        <img className="cart-line__image" src={product.image} alt="" />
      ) : (
        <span className="cart-line__image" aria-hidden="true" />
      )}
      <div className="cart-line__body">
        <h3 className="cart-line__name">{product.name}</h3>
        <p className="cart-line__prices">
          {discounted && (
            <s className="cart-line__old-price">
              <span className="commerce-visually-hidden">De </span>
              {formatBrl(product.value)}
            </s>
          )}
          <span className="cart-line__price">
            {discounted && <span className="commerce-visually-hidden">por </span>}
            {formatBrl(unitPrice)}
          </span>
        </p>
        <div className="cart-line__controls">
          <div className="quantity-stepper" role="group" aria-label={`Quantidade de ${product.name}`}>
            <button
              type="button"
              className="quantity-stepper__button"
              aria-label={`Diminuir a quantidade de ${product.name}`}
              disabled={!canDecrease}
              onClick={() => onQuantityChange(quantity - 1)}
            >
              −
            </button>
            <output className="quantity-stepper__value" aria-live="polite" aria-busy={busy}>
              {quantity}
            </output>
            <button
              type="button"
              className="quantity-stepper__button"
              aria-label={`Aumentar a quantidade de ${product.name}`}
              disabled={!canIncrease}
              onClick={() => onQuantityChange(Math.min(quantity + 1, maxQuantity))}
            >
              +
            </button>
          </div>
          <button
            type="button"
            className="cart-line__delete"
            aria-label={`Excluir ${product.name}`}
            disabled={busy}
            onClick={onRemove}
          >
            Excluir
          </button>
        </div>
      </div>
    </li>
  );
}

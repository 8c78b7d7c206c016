// An order as the server answered it: its products with the way to the receipt, each
// activity's delivery, and its totals (spec 002 section 2, step 4, and the order page).
import { Link } from "react-router";
import { TotalsBox } from "@/features/commerce/components/totals-box";
import { formatBrl } from "@/features/commerce/money";
import { orderPath } from "@/features/commerce/paths";
import type { Order } from "@/types/api";

export function OrderSummary({ order, receiptLinks = false }: { order: Order; receiptLinks?: boolean }) {
  return (
    <div className="order-summary">
      <p>
        Pedido <strong>{order.code}</strong> — {order.status}
      </p>
      <ul className="order-summary__lines">
        {order.single_product_orders.map((line) => (
          <li key={line.id}>
            {line.quantity} x {line.product.name} — {formatBrl(line.unit_price * line.quantity)}
            {receiptLinks && (
              <>
                {" "}
                <Link to={orderPath(order.id)}>Ver comprovante</Link>
              </>
            )}
          </li>
        ))}
      </ul>
      {order.deliveries
        .filter((delivery) => delivery.delivery_location_name)
        .map((delivery) => (
          <p key={delivery.action_id} className="order-summary__delivery">
            {delivery.delivery ? "Entrega" : "Retirada"}: {delivery.delivery_location_name}
            {delivery.address ? ` — ${[delivery.address, delivery.number].filter(Boolean).join(", ")}` : ""}
          </p>
        ))}
      <TotalsBox
        totals={{
          deliveryCents: order.delivery_tax_value,
          productsCents: order.product_items_sum_value,
          discountCents: order.additional_discount_value,
          subtotalCents: order.final_value,
          cashbackCents: order.cashback_value,
        }}
      />
    </div>
  );
}

// The cart's last step (spec 002 sections 2 and 4): an order waiting for its PIX shows the
// PIX screen (with the sandbox's simulated payment where the deployment runs it); any other
// placed order, 'Pedido realizado com sucesso!' with its summary and the way to its receipt.
// Under the title, the spec's success text that fits the order (docs/decisions.md, "Success
// texts"): a delivery order (type 14) 'Pedido enviado com sucesso.', a paid order of
// vouchers 'Sucesso, aproveite.'.
import { Link } from "react-router";
import { OrderSummary } from "@/features/commerce/components/order-summary";
import { PixPanel } from "@/features/commerce/components/pix-panel";
import { orderPath } from "@/features/commerce/paths";
import type { Order } from "@/types/api";

export const SIMULATE_PIX_TEXT = "Simular pagamento";
export const DELIVERY_ORDER_SENT_TEXT = "Pedido enviado com sucesso.";
export const VOUCHERS_OBTAINED_TEXT = "Sucesso, aproveite.";
/** Type 14: the delivery order form. */
export const DELIVERY_ORDER_TYPE = 14;

/** The success text a placed order shows, or null. */
export function placedOrderText(order: Order): string | null {
  if (order.action?.type_id === DELIVERY_ORDER_TYPE) return DELIVERY_ORDER_SENT_TEXT;
  const vouchers = order.create_vouchers || order.action?.sell_vouchers === true;
  if (vouchers && order.status_code === "paid") return VOUCHERS_OBTAINED_TEXT;
  return null;
}

/** A placed order still waiting for its PIX: the PIX screen comes before the success step. */
export function awaitsPix(order: Order): boolean {
  const charge = order.gateway_charge;
  return (
    order.status_code === "pending" &&
    charge?.payment_method === "pix" &&
    Boolean(charge.pix_qr_code) &&
    Boolean(charge.expiration_date)
  );
}

interface PlacedStepProps {
  order: Order;
  /** A PIX check is on its way. */
  verifying: boolean;
  onVerify: () => void;
  onPixExpired: () => void;
  /** Offers 'Simular pagamento' (the payments sandbox). */
  sandbox: boolean;
  simulating: boolean;
  onSimulate: (chargeId: string) => void;
}

export function PlacedStep({ order, verifying, onVerify, onPixExpired, sandbox, simulating, onSimulate }: PlacedStepProps) {
  const charge = order.gateway_charge;
  if (awaitsPix(order)) {
    if (!charge?.pix_qr_code || !charge.expiration_date) return null;
    const chargeId = charge.charge_id;
    return (
      <PixPanel
        amountCents={order.credit_card_value}
        code={charge.pix_qr_code}
        expiresAt={charge.expiration_date}
        verifying={verifying}
        onVerify={onVerify}
        onExpire={onPixExpired}
      >
        {sandbox && chargeId && (
          <button
            type="button"
            className="button button--secondary"
            aria-disabled={simulating}
            onClick={() => {
              if (!simulating) onSimulate(chargeId);
            }}
          >
            {SIMULATE_PIX_TEXT}
          </button>
        )}
      </PixPanel>
    );
  }
  const text = placedOrderText(order);
  return (
    <>
      {text && <p className="cart-placed__text">{text}</p>}
      <OrderSummary order={order} receiptLinks />
      <Link className="button button--primary" to={orderPath(order.id)}>
        Ver comprovante do pedido e Gerar voucher
      </Link>
    </>
  );
}

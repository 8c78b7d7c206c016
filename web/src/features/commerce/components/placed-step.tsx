// The cart's last step (spec 002 sections 2 and 4): an order waiting for its PIX shows the
// PIX screen (with the sandbox's simulated payment where the deployment runs it); any other
// placed order, 'Pedido realizado com sucesso!' with its summary and the way to its receipt.
import { Link } from "react-router";
import { OrderSummary } from "@/features/commerce/components/order-summary";
import { PixPanel } from "@/features/commerce/components/pix-panel";
import { orderPath } from "@/features/commerce/paths";
import type { Order } from "@/types/api";

export const SIMULATE_PIX_TEXT = "Simular pagamento";

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
  return (
    <>
      <OrderSummary order={order} receiptLinks />
      <Link className="button button--primary" to={orderPath(order.id)}>
        Ver comprovante do pedido e Gerar voucher
      </Link>
    </>
  );
}

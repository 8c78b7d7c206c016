// /validador/pedido/{code}, where a receipt's QR code leads (spec 002: a partner's host when
// the order's activity has one, else the app's): whether the order is paid, what was bought
// and where it goes, for its partner's staff and for the member who bought it. Anyone else
// gets the 401 page of spec 002 section 8.
import { LoadingPage } from "@/components/loading-page";
import { MessagePage } from "@/components/message-page";
import { useValidatorOrder } from "@/features/public-pages/api/voucher-validation";
import { isStatus, Unauthorized } from "@/features/public-pages/components/validator-access";
import { useSession } from "@/features/session";
import { formatDate } from "@/lib/dates";
import type { OrderCheck } from "@/types/api";
import "./voucher-validator-page.css";

export const ORDER_VALIDATOR_TITLE = "Conferência de pedido";
export const ORDER_NOT_PAID_TEXT = "Este pedido não está pago: não entregue os produtos.";
export const ORDER_REFUNDED_TEXT = "Este pedido foi estornado: não entregue os produtos.";

function OrderToCheck({ order }: { order: OrderCheck }) {
  return (
    <MessagePage title={ORDER_VALIDATOR_TITLE}>
      <div className="voucher-validator">
        <p className="voucher-validator__code">
          Pedido: <strong>{order.code}</strong>
        </p>
        <p>{order.member_name}</p>
        <p>Feito em {formatDate(order.created_at)}</p>
        <p className={order.paid ? "voucher-validator__title" : "voucher-validator__used"}>
          {order.status}
        </p>
        {!order.paid && (
          <p className="voucher-validator__used">{order.refunded ? ORDER_REFUNDED_TEXT : ORDER_NOT_PAID_TEXT}</p>
        )}
        {order.lines.length > 0 && (
          <ul className="order-validator__lines" aria-label="Produtos">
            {order.lines.map((line, index) => (
              <li key={index}>
                {line.quantity} x {line.product}
              </li>
            ))}
          </ul>
        )}
        {order.deliveries.map((delivery, index) => (
          <p key={index}>
            {delivery.pickup ? "Retirada" : "Entrega"}: {delivery.location}
            {delivery.address ? ` (${delivery.address})` : ""}
          </p>
        ))}
      </div>
    </MessagePage>
  );
}

export function OrderValidatorPage({ code }: { code: string }) {
  const session = useSession();
  const order = useValidatorOrder(code);
  if (session === null || isStatus(order.error, 401, 403)) return <Unauthorized signedIn={session !== null} />;
  if (order.isPending) return <LoadingPage />;
  if (order.isError) {
    return (
      <MessagePage title={ORDER_VALIDATOR_TITLE}>
        <p>{order.error.message}</p>
        {!isStatus(order.error, 404) && (
          <button type="button" className="button button--secondary" onClick={() => void order.refetch()}>
            Tentar novamente
          </button>
        )}
      </MessagePage>
    );
  }
  return <OrderToCheck order={order.data} />;
}

// /validador/pedido/{code}, where a receipt's QR code leads (spec 002: a partner's host when
// the order's activity has one, else the app's): whether the order is paid, what was bought
// and where it goes, for its partner's staff and for the member who bought it. The partner's
// staff hand each line over once ('Entregar'); a line handed over says when and by whom.
// Anyone else gets the 401 page of spec 002 section 8.
import { LoadingPage } from "@/components/loading-page";
import { MessagePage } from "@/components/message-page";
import { useHandOverLine, useValidatorOrder } from "@/features/public-pages/api/voucher-validation";
import { isStatus, Unauthorized } from "@/features/public-pages/components/validator-access";
import { useSession } from "@/features/session";
import { formatDate, formatDateTime } from "@/lib/dates";
import type { OrderCheck, OrderCheckLine } from "@/types/api";
import "./voucher-validator-page.css";

export const ORDER_VALIDATOR_TITLE = "Conferência de pedido";
export const ORDER_NOT_PAID_TEXT = "Este pedido não está pago: não entregue os produtos.";
export const ORDER_REFUNDED_TEXT = "Este pedido foi estornado: não entregue os produtos.";
export const HAND_OVER_TEXT = "Entregar";
export const BY_VOUCHER_TEXT = "Entregue pelos vouchers: valide cada um.";
export const handedOverText = (at: string, by: string) => `Entregue em ${formatDateTime(at)} por ${by}`;

function LineToHandOver({ code, order, line }: { code: string; order: OrderCheck; line: OrderCheckLine }) {
  const handOver = useHandOverLine(code);
  const canHandOver = order.hands_over && order.paid && !line.vouchers && line.handed_over === null;
  const descriptionId = `order-line-${line.id}`;
  return (
    <li className="order-validator__line">
      <span id={descriptionId}>
        {line.quantity} x {line.product}
      </span>
      {line.handed_over ? (
        <span className="order-validator__handed" role="status">
          {handedOverText(line.handed_over.at, line.handed_over.by)}
        </span>
      ) : order.hands_over && line.vouchers ? (
        <span>{BY_VOUCHER_TEXT}</span>
      ) : (
        canHandOver && (
          <button
            type="button"
            className="button button--primary"
            aria-describedby={descriptionId}
            disabled={handOver.isPending}
            aria-busy={handOver.isPending}
            onClick={() => handOver.mutate(line.id)}
          >
            {handOver.isPending ? "Entregando..." : HAND_OVER_TEXT}
          </button>
        )
      )}
      {handOver.isError && (
        <span className="voucher-validator__error" role="alert">
          {handOver.error.message}
        </span>
      )}
    </li>
  );
}

function OrderToCheck({ code, order }: { code: string; order: OrderCheck }) {
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
            {order.lines.map((line) => (
              <LineToHandOver key={line.id} code={code} order={order} line={line} />
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
  return <OrderToCheck code={code} order={order.data} />;
}

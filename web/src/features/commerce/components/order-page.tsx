// /homepage/pedidos/:id (spec 002 sections 2 and 4): the order's receipt. An activity of
// type 3 shows the purchase receipt ('Comprovantes de compra'); any other a generic order
// sheet with a table of product, quantity, delivery place and purchase date. 'Imprimir',
// the way home, and 'Meus vouchers' once the order is paid and its vouchers were made. A paid
// order's receipt downloads as a PDF ('Ver comprovante'), following the job that makes it; a
// paid order whose activity sells vouchers that were not made yet has them made once, and
// the order is read again, failure or not (spec 002 section 4).
import { useEffect, useRef } from "react";
import { Link, useParams } from "react-router";
import { NotFoundPage } from "@/components/not-found-page";
import { useToast } from "@/components/toasts/use-toast";
import { receiptPath } from "@/features/commerce/api/documents";
import { useOrder } from "@/features/commerce/api/orders";
import { useCreateOrderVouchers } from "@/features/commerce/api/vouchers";
import { DocumentDownload } from "@/features/commerce/components/document-download";
import { OrderSummary } from "@/features/commerce/components/order-summary";
import { PAID_STATUS, PARTIALLY_REFUNDED_STATUS, VOUCHERS_FAILED_TEXT } from "@/features/commerce/messages";
import { formatBrl } from "@/features/commerce/money";
import { VOUCHERS_PATH } from "@/features/commerce/paths";
import { printLabel } from "@/features/commerce/print";
import { ERROR_TOAST_TITLE } from "@/lib/api-client";
import { formatDate } from "@/lib/dates";
import type { Order } from "@/types/api";
import "./shop-screens.css";

export const PURCHASE_RECEIPT_TITLE = "Comprovantes de compra";
export const ORDER_SHEET_TITLE = "Comprovante do pedido";
export const RECEIPT_LINK_TEXT = "Ver comprovante";
const COUPON_PURCHASE_TYPE = 3;
/** The statuses of an order that has a receipt (the server answers 409 for any other). */
const RECEIPT_STATUS_CODES: ReadonlySet<string> = new Set(["paid", "partially_refunded", "refunded"]);

/** The amount shown for an order: the card part when above 0, else the final value (spec 002 section 9). */
export function shownTotal(order: Order): number {
  return order.credit_card_value > 0 ? order.credit_card_value : order.final_value;
}

function deliveryPlace(order: Order, actionId: number): string {
  const delivery = order.deliveries.find((item) => item.action_id === actionId);
  return delivery?.delivery_location_name ?? "—";
}

function OrderSheet({ order }: { order: Order }) {
  const purchaseDate = formatDate(order.createdAt);
  return (
    <table className="order-sheet">
      <thead>
        <tr>
          <th scope="col">Produto</th>
          <th scope="col">Quantidade</th>
          <th scope="col">Local de entrega</th>
          <th scope="col">Data da compra</th>
        </tr>
      </thead>
      <tbody>
        {order.single_product_orders.map((line) => (
          <tr key={line.id}>
            <td>{line.product.name}</td>
            <td>{line.quantity}</td>
            <td>{deliveryPlace(order, line.action_id)}</td>
            <td>{purchaseDate}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Makes the vouchers of a paid order that sells them, once per order shown. */
function useVouchersOnce(order: Order, due: boolean) {
  const { mutate } = useCreateOrderVouchers();
  const showToast = useToast();
  const asked = useRef<number | null>(null);
  useEffect(() => {
    if (!due || asked.current === order.id) return;
    asked.current = order.id;
    mutate(order.id, { onError: () => showToast({ title: ERROR_TOAST_TITLE, text: VOUCHERS_FAILED_TEXT }) });
  }, [due, order.id, mutate, showToast]);
}

function OrderView({ order }: { order: Order }) {
  const purchaseReceipt = order.action?.type_id === COUPON_PURCHASE_TYPE;
  const paid = order.status === PAID_STATUS;
  const sellsVouchers = paid && order.action?.sell_vouchers === true;
  const vouchersReady = sellsVouchers && order.create_vouchers;
  useVouchersOnce(order, sellsVouchers && !order.create_vouchers);
  return (
    <section className="shop-screen order-page">
      <h1 className="shop-screen__title">{purchaseReceipt ? PURCHASE_RECEIPT_TITLE : ORDER_SHEET_TITLE}</h1>
      {!purchaseReceipt && <OrderSheet order={order} />}
      <OrderSummary order={order} />
      <p className="order-page__total">
        Total: <strong>{formatBrl(shownTotal(order))}</strong>
      </p>
      {order.status === PARTIALLY_REFUNDED_STATUS && (
        <p className="order-page__refund">
          Valor estornado: {formatBrl(Math.round(order.total_final_value * order.refunded_percentage))}
        </p>
      )}
      <div className="order-page__actions">
        <button type="button" className="button button--primary" onClick={() => window.print()}>
          {printLabel()}
        </button>
        {RECEIPT_STATUS_CODES.has(order.status_code) && (
          <DocumentDownload path={receiptPath(order.id)} fileName={`comprovante-${order.code}.pdf`} label={RECEIPT_LINK_TEXT} />
        )}
        {vouchersReady && (
          <Link className="button button--secondary" to={VOUCHERS_PATH}>
            Meus vouchers
          </Link>
        )}
        <Link className="button button--secondary" to="/homepage">
          Voltar para a página inicial
        </Link>
      </div>
    </section>
  );
}

export function OrderPage() {
  const orderId = Number(useParams().id);
  const valid = Number.isInteger(orderId) && orderId > 0;
  const order = useOrder(valid ? orderId : null);
  if (!valid) return <NotFoundPage />;
  if (order.isPending) {
    return (
      <section className="shop-screen">
        <p className="shop-screen__loading" aria-busy="true">
          Carregando pedido…
        </p>
      </section>
    );
  }
  if (order.isError || order.data === null) {
    return (
      <section className="shop-screen">
        <h1 className="shop-screen__title">{ORDER_SHEET_TITLE}</h1>
        <p className="shop-screen__error">{order.error?.message ?? "Pedido não encontrado"}</p>
        <Link className="button button--secondary" to="/homepage/pedidos">
          Meus pedidos
        </Link>
      </section>
    );
  }
  return <OrderView order={order.data} />;
}

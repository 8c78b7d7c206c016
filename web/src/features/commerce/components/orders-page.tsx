// /homepage/pedidos, 'Meus pedidos' (spec 002 section 2): one card per order with its
// long-form creation date; a click opens the order.
import { Link } from "react-router";
import { useOrders } from "@/features/commerce/api/orders";
import { formatBrl } from "@/features/commerce/money";
import { orderPath } from "@/features/commerce/paths";
import "./shop-screens.css";

export const ORDERS_TITLE = "Meus pedidos";
export const NO_ORDERS_TEXT = "Você ainda não fez pedidos.";
const SKELETON_CARDS = 5;

const LONG_DATE = new Intl.DateTimeFormat("pt-BR", { day: "numeric", month: "long", year: "numeric" });

/** "21 de novembro de 2026". */
export function longDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "" : LONG_DATE.format(date);
}

export function OrdersPage() {
  const orders = useOrders();
  return (
    <section className="shop-screen">
      <h1 className="shop-screen__title">{ORDERS_TITLE}</h1>
      {orders.isPending ? (
        <ul className="order-cards" aria-busy="true" aria-label="Carregando pedidos">
          {Array.from({ length: SKELETON_CARDS }, (_, index) => (
            <li key={index} className="order-card order-card--skeleton" />
          ))}
        </ul>
      ) : orders.isError ? (
        <div className="shop-screen__error">
          <p>Não foi possível carregar os seus pedidos.</p>
          <button type="button" className="button button--secondary" onClick={() => void orders.refetch()}>
            Tentar novamente
          </button>
        </div>
      ) : orders.data.length === 0 ? (
        <p className="shop-screen__empty">{NO_ORDERS_TEXT}</p>
      ) : (
        <ul className="order-cards">
          {orders.data.map((order) => (
            <li key={order.id} className="order-card">
              <Link className="order-card__link" to={orderPath(order.id)}>
                <span className="order-card__title">Pedido {order.code}</span>
                <span className="order-card__date">{longDate(order.createdAt)}</span>
                <span className="order-card__status">{order.status}</span>
                <span className="order-card__total">{formatBrl(order.total_final_value)}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
